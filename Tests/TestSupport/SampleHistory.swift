import Foundation
import HILResults

/// Five nightly runs of one bench, written as results directories, for the tests of `hil report --history`.
///
/// Runs #1–#5 start a day apart; their directories are named so that name order is the reverse of time
/// order. Runs #1 and #2 share a commit. Per run (P passed, F failed, I infrastructure error, S skipped):
///
/// ```
/// PowerOffTests/powerOffWhileConnected [thermometer]   P P F F F      starts failing at run #3
/// PowerOffTests/reconnect [thermometer]                P F P P P      flips on the commit of runs #1 and #2
/// PowerOffTests/advertiseAfterPowerOn [scale]          F F P I F      latest streak of failures from run #5
/// PowerOffTests/loop [scale]                           P P P PFP P    run #4: three repetitions, one failed
/// PowerOffTests/stability [thermometer]                P P P P P      connect / discovery samples
/// PowerOffTests/pairing [thermometer]                  S S S S S
/// ```
///
/// Connect: samples in runs #1, #2, #4, #5 (`connectSamples`); in run #3 no samples but three cases with a
/// value (`connectValuesRun3`). Discovery: samples in runs #1 and #2 only. Run #4 keeps only its records and
/// `.run.json` (no results.json); the others are rendered as `hil report` renders them.
public enum SampleHistory {
    /// The commit of each run: runs #1 and #2 share one.
    public static let commits = [String(repeating: "1", count: 40), String(repeating: "1", count: 40), String(repeating: "2", count: 40),
                                 String(repeating: "3", count: 40), String(repeating: "4", count: 40)]
    /// Directory names, in the reverse order of the runs' start.
    public static let names = ["e-monday", "d-tuesday", "c-wednesday", "b-thursday", "a-friday"]
    /// The verdicts above, per test function (`P`, `F`, `I`, `S`; run #4 of `loop` is its repetitions).
    public static let verdicts: [(test: String, accessory: String, runs: [String])] = [
        ("powerOffWhileConnected", "thermometer", ["P", "P", "F", "F", "F"]),
        ("reconnect", "thermometer", ["P", "F", "P", "P", "P"]),
        ("advertiseAfterPowerOn", "scale", ["F", "F", "P", "I", "F"]),
        ("loop", "scale", ["P", "P", "P", "PFP", "P"]),
        ("stability", "thermometer", ["P", "P", "P", "P", "P"]),
        ("pairing", "thermometer", ["S", "S", "S", "S", "S"]),
    ]
    /// The stability loop's connect samples (ms) per run; nil: none.
    public static let connectSamples: [[Double]?] = [[10, 20, 30, 40, 50, 60, 70, 80, 90, 100], [12, 15, 11, 40, 13], nil, [20, 20], [30, 40]]
    /// The stability loop's discovery samples (ms) per run; nil: none.
    public static let discoverySamples: [[Double]?] = [[1, 2, 3, 4], [5], nil, nil, nil]
    /// Run #3's connect values (ms), one per case, on powerOffWhileConnected, reconnect and stability.
    public static let connectValuesRun3: [Double] = [100, 300, 200]

    public static func started(run index: Int) -> Date { SampleRecords.start.addingTimeInterval(Double(index) * 86_400) }

    /// Writes the five runs into `archive/<name>/` and returns their directories in run order.
    @discardableResult
    public static func write(into archive: URL) throws -> [URL] {
        try commits.indices.map { index in
            let directory = archive.appendingPathComponent(names[index], isDirectory: true)
            let layout = ResultsLayout(directory)
            try layout.create()
            var context = SampleRecords.context
            context.gitCommit = commits[index]
            context.started = started(run: index)
            try context.write(to: layout)
            for record in records(run: index) { try record.write(toResultsDirectory: directory) }
            if index != 3 { _ = try ResultsRenderer.rerender(directory) }
            return directory
        }
    }

    /// A run that `hil run` began but whose results.json is cut off: `.run.json` and half a JSON object.
    @discardableResult
    public static func writeCorrupt(into archive: URL, name: String = "z-corrupt") throws -> URL {
        let directory = archive.appendingPathComponent(name, isDirectory: true)
        let layout = ResultsLayout(directory)
        try layout.create()
        try SampleRecords.context.write(to: layout)
        try Data("{\"schemaVersion\": 1, \"cases\": [".utf8).write(to: layout.resultsJSON)
        return directory
    }

    static func records(run index: Int) -> [TestRecord] {
        var records: [TestRecord] = []
        for (position, test) in verdicts.enumerated() {
            let letters = Array(test.runs[index])
            for (repetition, letter) in letters.enumerated() {
                let verdict: TestRecord.Verdict = switch letter {
                case "P": .passed
                case "F": .failed
                case "I": .infrastructureError
                default: .skipped
                }
                var record = SampleRecords.record(test.test, accessory: test.accessory, verdict: verdict,
                                                  message: verdict == .passed ? nil : "\(verdict.rawValue) in run \(index + 1)",
                                                  offset: Double(index) * 86_400 + Double(position * 10 + repetition))
                if letters.count > 1 { record.repetition = repetition + 1 }
                record.measurements = measurements(test: test.test, run: index)
                records.append(record)
            }
        }
        return records
    }

    static func measurements(test: String, run index: Int) -> [HILResults.Measurement] {
        var list: [HILResults.Measurement] = []
        if test == "stability" {
            if let samples = connectSamples[index] {
                list.append(.init(name: "connect", value: samples.sorted()[samples.count / 2], unit: "ms", samples: samples))
            }
            if let samples = discoverySamples[index] {
                list.append(.init(name: "discovery", value: samples.sorted()[samples.count / 2], unit: "ms", samples: samples))
            }
        }
        if index == 2, let slot = ["powerOffWhileConnected", "reconnect", "stability"].firstIndex(of: test) {
            list.append(.init(name: "connect", value: connectValuesRun3[slot], unit: "ms"))
        }
        if test == "powerOffWhileConnected" {
            list.append(.init(name: "link loss reported", value: 2000 + Double(index), unit: "ms"))
        }
        return list
    }
}
