import Foundation
import HILResults

/// Follows a run while `swift test` goes on: tails `.events.jsonl` and `.progress.jsonl`, re-reads changed
/// records, and after each finished case re-assembles the results, re-writes the three result files and
/// prints the case. The status line is redrawn at most every 0.25 s of `now`, the time of day (events carry
/// it too: a running case's time is `now` since its start); a test gives a clock it steps. The files it
/// writes while the run goes on say so (`unfinished`): a run that ends before its final write is never a pass.
/// It writes through `gate`, and tells `interrupts` which case runs.
struct RunFollower {
    let layout: ResultsLayout
    let context: RunContext
    var printer: ProgressPrinter
    let now: @Sendable () -> Date
    let gate: ResultsGate
    let interrupts: RunInterrupts?
    private(set) var run = SwiftTestingRun()
    private(set) var printedCases = Set<String>()
    private(set) var latest: Assembly?
    private(set) var incompleteEventLine: Int?
    private var eventErrors: [ResultsError] = []
    private let events: FileTail
    private let progressTail: FileTail
    private var loops: [String: (first: LoopProgress, latest: LoopProgress)] = [:]
    private var records: [String: (stamp: String, record: TestRecord)] = [:]
    private var recordErrors: [String: ResultsError] = [:]
    private var writeError: ResultsError?
    private var lastStatus = Date.distantPast

    init(layout: ResultsLayout, context: RunContext, printer: ProgressPrinter, now: @escaping @Sendable () -> Date = { Date() },
         gate: ResultsGate = ResultsGate(), interrupts: RunInterrupts? = nil) {
        self.layout = layout
        self.context = context
        self.printer = printer
        self.now = now
        self.gate = gate
        self.interrupts = interrupts
        events = FileTail(path: layout.events.path)
        progressTail = FileTail(path: layout.progress.path)
    }

    /// One poll: new events, new progress; on finished cases, the results re-written and the cases printed.
    mutating func poll(elapsed: Double, final: Bool = false) {
        var finished: [SwiftTestingRun.CaseKey] = []
        for line in events.readLines() {
            do { finished += run.apply(try EventStreamRecord.decode(line: line.bytes)) } catch {
                eventErrors.append(ResultsError(layout.events.path, line: line.number, error.message))
            }
        }
        if final, let last = events.incompleteLine {
            if let record = try? EventStreamRecord.decode(line: last.bytes) { finished += run.apply(record) } else { incompleteEventLine = last.number }
        }
        for line in progressTail.readLines() {
            guard let progress = try? TestRecord.makeDecoder().decode(LoopProgress.self, from: Data(line.bytes)) else { continue }
            let key = progress.testID + "\u{1F}" + (progress.accessory ?? "")
            if let known = loops[key], known.first.done <= progress.done, known.first.total == progress.total {
                loops[key] = (known.first, progress)
            } else {
                loops[key] = (progress, progress)
            }
        }
        interrupts?.enter(RunInterruption.testingPhase(run))
        if !finished.isEmpty && !final {
            let assembly = assemble(abort: nil, problems: problems(), isComplete: false)
            do { try gate.write(assembly, to: layout, unfinished: Self.unfinished(assembly)) } catch { writeError = error }
            let keys = Set(finished)
            for result in assembly.cases where !printedCases.contains(result.caseName) {
                guard let key = result.swiftTestingCase, keys.contains(key) else { continue }
                printer.caseFinished(result)
                printedCases.insert(result.caseName)
            }
        }
        if !final { showStatus(elapsed: elapsed) }
    }

    /// The results so far (or final, with `abort` for a run cut off).
    mutating func assemble(abort: ResultsAssembler.Abort?, problems: [Assembly.Problem], isComplete: Bool) -> Assembly {
        refreshRecords()
        let assembly = ResultsAssembler.assemble(records: records.values.map(\.record).sorted { ($0.started, $0.testID) < ($1.started, $1.testID) },
                                                 run: run, context: context, abort: abort, problems: problems, isComplete: isComplete)
        latest = assembly
        return assembly
    }

    /// The mark of the files written while the run goes on: if it is still there when someone reads them,
    /// `hil run` ended before its final write (a SIGKILL, a crash, a power cut), and the run is not a pass.
    static func unfinished(_ assembly: Assembly) -> Assembly.Problem {
        let count = assembly.cases.filter { !$0.isSuiteNote }.count
        return .init("hil run had not finished when it wrote this (after \(count) test case\(count == 1 ? "" : "s")): if it is no longer "
                     + "running, it ended before it could write its results (killed, a crash, a power cut)", outcome: .infrastructureError)
    }

    /// Unusable inputs so far: event lines, records, a results file that could not be written.
    func problems() -> [Assembly.Problem] {
        var list = eventErrors.map { Assembly.Problem($0.description, outcome: .infrastructureError) }
        list += recordErrors.keys.sorted().compactMap { recordErrors[$0] }.map { Assembly.Problem($0.description, outcome: .infrastructureError) }
        if let writeError { list.append(.init("cannot write the results: \(writeError)", outcome: .infrastructureError)) }
        return list
    }

    /// Re-reads records whose size or modification time changed.
    private mutating func refreshRecords() {
        let manager = FileManager.default
        let names = ((try? manager.contentsOfDirectory(atPath: layout.records.path)) ?? []).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
        for name in names {
            let url = layout.records.appendingPathComponent(name)
            guard let attributes = try? manager.attributesOfItem(atPath: url.path) else { continue }
            let stamp = "\(attributes[.size] ?? 0)-\((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
            if records[name]?.stamp == stamp { continue }
            do {
                records[name] = (stamp, try TestRecord.load(url))
                recordErrors[name] = nil
            } catch {
                recordErrors[name] = error
            }
        }
        for name in records.keys where !names.contains(name) { records[name] = nil }
    }

    /// "[3/12] PowerOffTests/powerOff [thermometer] 4.2 s · 37/100 power cycles · ETA 1 min 12 s".
    private mutating func showStatus(elapsed: Double) {
        guard printer.output.isInteractive else { return }
        let now = self.now()
        guard now.timeIntervalSince(lastStatus) >= 0.25 else { return }
        lastStatus = now
        let planned = run.plannedCaseCount
        let done = run.finishedCaseCount
        var text = planned > 0 ? "[\(done)/\(planned)]" : "[\(done)]"
        if let running = run.orderedCases.last(where: { !$0.hasEnded && !$0.isSuiteLevel && !run.isSuite($0.key.testID) }) {
            var name = TestIDParts(running.key.testID).displayPath
            if let arguments = running.arguments { name += " [\(arguments)]" }
            text += " \(name)"
            if let started = running.started { text += " \(ProgressText.duration(max(0, now.timeIntervalSince(started))))" }
            let loop = loops.filter { $0.value.latest.testID == running.key.testID }.values.max { $0.latest.time < $1.latest.time }
            if let loop, loop.latest.time >= (running.started ?? .distantPast) { text += " · " + loop.latest.text(since: loop.first) }
        } else if run.runStarted == nil {
            text = "starting tests… \(ProgressText.duration(elapsed))"
        }
        printer.status(text)
    }
}
