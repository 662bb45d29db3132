/// One measurement's p95 over the runs of a `RunHistory` (connect and discovery latencies, every other
/// measurement a run recorded, and each transition's energy), keyed by the measurement's name and unit.
///
/// A run's point pools the measurements of that name and unit in all its cases. When any of them carries
/// samples (a stability loop's latencies), the p95 is over all those samples; when none does, it is over
/// the measurements' values, one per case. Percentiles are `SampleStatistics.percentiles` (linear
/// interpolation between closest ranks); non-finite numbers are ignored.
public struct MeasurementSeries: Sendable, Hashable {
    /// One run's p95.
    public struct Point: Sendable, Hashable {
        public var p95: Double
        /// How many numbers the p95 is over.
        public var count: Int
        /// Whether they are samples (true) or the cases' values (false).
        public var fromSamples: Bool
    }

    /// The two series history.html draws as trend lines.
    public static let trended = ["connect", "discovery"]
    /// How the series of a transition's energy begin (`TransitionEnergy.trendName`): a series in µC (its
    /// charge) and one in µA (its average current) per transition, drawn as trend lines too.
    public static let energyPrefix = "energy · "

    /// Whether this is a transition's energy series.
    public var isEnergy: Bool { name.hasPrefix(Self.energyPrefix) }

    public var name: String
    public var unit: String
    /// One per run of the history; nil where the run measured nothing finite of this name and unit.
    public var points: [Point?]

    /// A series' name and unit: what one series is of.
    struct Key: Hashable, Sendable {
        var name: String
        var unit: String
    }

    /// One run's points: the p95 of each name and unit its cases measured (see the type's comment), computed
    /// once, so a run read for a history need not keep its samples.
    static func points(_ cases: [CaseResult]) -> [Key: Point] {
        struct Pool { var samples: [Double] = []; var values: [Double] = [] }
        var pools: [Key: Pool] = [:]
        for measurement in cases.lazy.flatMap(\.record.measurements) {
            let key = Key(name: measurement.name, unit: measurement.unit)
            pools[key, default: Pool()].samples += (measurement.samples ?? []).filter(\.isFinite)
            if measurement.value.isFinite { pools[key, default: Pool()].values.append(measurement.value) }
        }
        // A transition's energy, per case that measured it: its charge and its average current.
        for transition in cases.lazy.flatMap({ $0.record.energy ?? [] }) {
            let name = transition.trendName
            for (unit, value) in [("µC", transition.chargeMicrocoulombs), ("µA", transition.averageMicroamperes)] where value.isFinite {
                pools[Key(name: name, unit: unit), default: Pool()].values.append(value)
            }
        }
        return pools.compactMapValues { pool -> Point? in
            let fromSamples = !pool.samples.isEmpty
            let numbers = fromSamples ? pool.samples : pool.values
            guard !numbers.isEmpty else { return nil }
            return Point(p95: SampleStatistics.percentiles(numbers).p95, count: numbers.count, fromSamples: fromSamples)
        }
    }

    /// A series per name and unit seen in any run: `trended` first, then by name and unit.
    static func all(casesPerRun: [[CaseResult]]) -> [MeasurementSeries] {
        all(pointsPerRun: casesPerRun.map(points))
    }

    /// A series per name and unit of any run's points: `trended` first, then by name and unit.
    static func all(pointsPerRun: [[Key: Point]]) -> [MeasurementSeries] {
        var rows: [Key: [Point?]] = [:]
        for (index, points) in pointsPerRun.enumerated() {
            for (key, point) in points { rows[key, default: Array(repeating: nil, count: pointsPerRun.count)][index] = point }
        }
        let series = rows.map { key, points in MeasurementSeries(name: key.name, unit: key.unit, points: points) }
        func rank(_ series: MeasurementSeries) -> Int { trended.firstIndex(of: series.name) ?? trended.count }
        return series.sorted { (rank($0), $0.name, $0.unit) < (rank($1), $1.name, $1.unit) }
    }
}
