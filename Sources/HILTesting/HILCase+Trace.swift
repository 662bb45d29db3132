import Foundation
import HILResults
import PowerMeters

extension HILCase {
    /// The most points the report's plot of a case's current gets (about one per two pixels of the timeline).
    static let plotPoints = 400

    /// With a meter: the accessory's current over the whole case so far, in bins of 1 ms (wider for a case
    /// longer than 5 s, `CurrentTrace.binSeconds`), written as CSV to `url` when given (beside the capture),
    /// and its plot's points for the record. A meter that gives no trace, or a file that cannot be written, is
    /// a bench error.
    func recordTrace(to url: URL?, relativePath: String?) async throws -> CaseTrace? {
        guard let meter else { return nil }
        let end = clock.now
        let binSeconds = CurrentTrace.binSeconds(for: started.duration(to: end) / .seconds(1))
        let trace = try await meter.trace(from: started, to: end, binSeconds: binSeconds)
        if let url {
            do { try ResultsFile.write(CurrentTraceCSV.render(trace), to: url) } catch {
                throw BenchError("cannot write the current trace of \(meter.name): \(error)")
            }
        }
        let plot = trace.downsampled(toAtMost: Self.plotPoints)
        return CaseTrace(path: url == nil ? nil : relativePath, plotBinSeconds: plot.binSeconds, plotMicroamperes: plot.microamperes)
    }
}
