/// What history.html shows of a `RunHistory` within `HistoryLimits`: the latest runs, the tests that matter most
/// first, the first other measurements by name, and one sentence saying what it left out. Runs keep their
/// numbers (`#N` is the run's position in the whole history, as in history.json), so a shown run is the same
/// run everywhere. The page's size is bounded by the limits, whatever the number of runs and tests read.
struct HistoryPage {
    let history: RunHistory
    let limits: HistoryLimits
    /// The latest `pageRuns` runs, oldest first.
    let runs: [RunHistory.Run]
    /// The matrix's rows: flaky tests, then failing ones, then the others, by display name within each; the
    /// first `pageTests`.
    let tests: [TestHistory]
    /// The flaky tests among `tests`.
    let flaky: [TestHistory]
    /// The failing tests among `tests`.
    let failing: [TestHistory]
    /// Measurements besides connect and discovery, by name and unit: the first `pageMeasurements`.
    let otherMeasurements: [MeasurementSeries]
    /// Of all measurements besides connect and discovery, how many.
    let otherMeasurementCount: Int
    /// The transitions' energy series (`MeasurementSeries.isEnergy`): the first `pageMeasurements`.
    let energy: [MeasurementSeries]
    /// Of all energy series, how many.
    let energyCount: Int

    init(_ history: RunHistory, limits: HistoryLimits) {
        self.history = history
        self.limits = limits
        runs = Array(history.runs.suffix(max(0, limits.pageRuns)))
        tests = Array(Self.ordered(history.tests).prefix(max(0, limits.pageTests)))
        flaky = tests.filter(\.isFlaky)
        failing = tests.filter { $0.firstFailingRun != nil }
        let others = history.measurements.filter { !MeasurementSeries.trended.contains($0.name) && !$0.isEnergy }
        otherMeasurementCount = others.count
        otherMeasurements = Array(others.prefix(max(0, limits.pageMeasurements)))
        let energy = history.measurements.filter(\.isEnergy)
        energyCount = energy.count
        self.energy = Array(energy.prefix(max(0, limits.pageMeasurements)))
    }

    /// Flaky tests, then failing ones, then the others; by display name within each.
    static func ordered(_ tests: [TestHistory]) -> [TestHistory] {
        func rank(_ test: TestHistory) -> Int { test.isFlaky ? 0 : (test.firstFailingRun != nil ? 1 : 2) }
        return tests.sorted { (rank($0), $0.displayName, $0.key.id) < (rank($1), $1.displayName, $1.key.id) }
    }

    /// The test's cells in the shown runs.
    func cells(_ test: TestHistory) -> [(run: RunHistory.Run, cell: TestHistory.Cell?)] {
        runs.map { ($0, test.cells.indices.contains($0.index) ? test.cells[$0.index] : nil) }
    }

    /// The series with only the shown runs' points, in their order.
    func shown(_ series: MeasurementSeries) -> MeasurementSeries {
        MeasurementSeries(name: series.name, unit: series.unit,
                          points: runs.map { series.points.indices.contains($0.index) ? series.points[$0.index] : nil })
    }

    /// What the page leaves out, one sentence; nil when it shows everything.
    var leftOut: String? {
        var parts: [String] = []
        if runs.count < history.runs.count { parts.append("the latest \(runs.count) of \(history.runs.count) runs") }
        if tests.count < history.tests.count { parts.append("\(tests.count) of \(history.tests.count) tests (flaky and failing first)") }
        if energy.count < energyCount { parts.append("\(energy.count) of \(energyCount) energy series") }
        if otherMeasurements.count < otherMeasurementCount {
            parts.append("\(otherMeasurements.count) of \(otherMeasurementCount) other measurements")
        }
        guard !parts.isEmpty else { return nil }
        let list = parts.count == 1 ? parts[0] : parts.dropLast().joined(separator: ", ") + " and " + (parts.last ?? "")
        return "This page shows \(list); history.json holds them all (HistoryLimits)."
    }

    /// "#1, #3, #4", at most `pageListItems` of them, then "and N more".
    func list(_ items: [String], separator: String = ", ") -> String {
        let most = max(1, limits.pageListItems)
        let shown = items.prefix(most).joined(separator: separator)
        return items.count > most ? "\(shown)\(separator)and \(items.count - most) more" : shown
    }
}
