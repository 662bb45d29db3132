/// A case's current trace, as its record names it: the CSV written beside the capture (`time_s,current_uA`, a
/// row per bin, docs/power-meters.md) and a coarser copy for the plot in report.html, aligned with the case's
/// timeline. In results.json as `path`, `plot_bin_s` and `plot_uA`.
public struct CaseTrace: Codable, Sendable, Hashable {
    /// The CSV's path relative to the results directory (`captures/<case>.current.csv`); nil when no results
    /// directory was written (plain `swift test`).
    public var path: String?
    /// The width in seconds of each plot point, the first starting at the case's start.
    public var plotBinSeconds: Double
    /// Each plot point's mean current in µA.
    public var plotMicroamperes: [Double]

    enum CodingKeys: String, CodingKey {
        case path
        case plotBinSeconds = "plot_bin_s", plotMicroamperes = "plot_uA"
    }

    public init(path: String?, plotBinSeconds: Double, plotMicroamperes: [Double]) {
        (self.path, self.plotBinSeconds, self.plotMicroamperes) = (path, plotBinSeconds, plotMicroamperes)
    }
}
