#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PowerMeters
import Support

/// A `command` meter: any program that records a supply current trace to CSV (Joulescope's and Otii's own
/// tools, or a script around them). `start` runs `argv` — `{csv}` in an argument becomes the file it is to
/// write — in a process group of its own and waits, up to `startDeadline`, for the file's first sample; `stop` sends SIGINT, then SIGTERM after `stopDeadline`, then SIGKILL
/// after as long again, and reads the file (`CurrentTraceCSV`: `time_s` seconds from the program's start, or
/// `unix_s` seconds since 1970, and `current_uA`). The trace is then put on the caller's clock: a `time_s`
/// trace starts at the instant the program was started, a `unix_s` trace is placed through the wall clock
/// read at that instant. Deadlines are kept on `clock`.
package actor CommandMeterRecorder {
    package nonisolated let name: String
    let argv: [String]
    let startDeadline: Duration
    let stopDeadline: Duration
    let clock: any Clock<Duration>
    /// The file the program writes.
    package nonisolated let csvPath: String

    private var child: ChildProcess?
    private var output = ChildOutput()
    private var ended: Termination?
    private var drainer: Task<Void, Never>?
    private let changed = ChangeSignal()
    /// The caller's clock and the wall clock when the program was started.
    private var startedAt: (instant: ContinuousClock.Instant, date: Date)?
    private var recorded: Result<CurrentSamples, PowerMeterError>?

    package init(name: String, argv: [String], csvPath: String, startDeadline: Duration = .seconds(10), stopDeadline: Duration = .seconds(5),
                 clock: some Clock<Duration> = ContinuousClock()) throws(PowerMeterError) {
        guard let first = argv.first, !first.isEmpty else { throw PowerMeterError(.unavailable, "\(name): the command is empty") }
        guard argv.contains(where: { $0.contains("{csv}") }) else {
            throw PowerMeterError(.unavailable, "\(name): no argument of the command holds {csv}, the file it is to write")
        }
        self.name = name
        self.argv = argv
        self.csvPath = csvPath
        self.startDeadline = startDeadline
        self.stopDeadline = stopDeadline
        self.clock = clock
    }

    /// The command line as run: `{csv}` replaced by the file's path.
    package nonisolated var commandLine: [String] { argv.map { $0.replacingOccurrences(of: "{csv}", with: csvPath) } }

    /// Starts the program and waits for its first sample (a row after the CSV's header), looking every 20 ms
    /// for at most `startDeadline`; `instant` is now on the clock the trace is to be put on. A program that
    /// ends first, or writes no sample in time (then stopped), is an error with the end of its output.
    package func start(at instant: ContinuousClock.Instant) async throws(PowerMeterError) {
        guard child == nil else { return }
        try spawn(at: instant)
        let result = await awaitFirstSample(clock: self.clock)
        if case .failure(let error) = result {
            _ = await stop()
            throw error
        }
    }

    private func spawn(at instant: ContinuousClock.Instant) throws(PowerMeterError) {
        try? FileManager.default.removeItem(atPath: csvPath)
        let started: ChildProcess
        do { started = try ChildProcess.spawn(commandLine) } catch {
            throw PowerMeterError(.unavailable, "\(name): \(error)")
        }
        startedAt = (instant, Date())
        child = started
        drainer = Task { [weak self] in
            for await event in started.events { await self?.record(event) }
        }
    }

    private func awaitFirstSample<C: Clock<Duration>>(clock: C) async -> Result<Void, PowerMeterError> {
        let due = clock.now.advanced(by: startDeadline)
        while true {
            if let text = try? String(contentsOfFile: csvPath, encoding: .utf8), Self.hasSample(text) { return .success(()) }
            if let ended {
                return .failure(PowerMeterError(.unavailable, "\(name): `\(argv[0])` ended (\(ended)) before writing a sample to \(csvPath); its output: \(tail)"))
            }
            if clock.now >= due {
                return .failure(PowerMeterError(.timeout, "\(name): `\(argv[0])` wrote no sample to \(csvPath) within \(startDeadline.seconds) (stopped); its output: \(tail)"))
            }
            let next = min(clock.now.advanced(by: .milliseconds(20)), due)
            do { try await Task.sleep(until: next, clock: clock) } catch {
                return .failure(PowerMeterError(.unavailable, "\(name): cancelled while waiting for the first sample of `\(argv[0])`"))
            }
        }
    }

    /// Whether a CSV holds a whole row after its header line.
    static func hasSample(_ text: String) -> Bool {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).filter { !$0.hasPrefix("#") }
        return lines.count >= 2 && (text.hasSuffix("\n") || text.hasSuffix("\r\n")) || lines.count >= 3
    }

    /// Stops the program (once; later calls give the same) and reads its CSV: the samples with times in seconds
    /// from the start instant. A program that ended by itself before, ended with a failure, or left no readable CSV is an error
    /// saying so with the end of its output.
    package func stop() async -> Result<CurrentSamples, PowerMeterError> {
        if let recorded { return recorded }
        let result = await stopAndRead(clock: self.clock)
        recorded = result
        return result
    }

    private func stopAndRead<C: Clock<Duration>>(clock: C) async -> Result<CurrentSamples, PowerMeterError> {
        guard let child, let startedAt else { return .failure(PowerMeterError(.unavailable, "\(name): the command was not started")) }
        let endedEarly = ended
        if endedEarly == nil {
            var due = clock.now.advanced(by: stopDeadline)
            child.signalGroup(SIGINT)
            if await !waitEnded(until: due, clock: clock) {
                child.signalGroup(SIGTERM)
                due = clock.now.advanced(by: stopDeadline)
                if await !waitEnded(until: due, clock: clock) {
                    child.signalGroup(SIGKILL)
                    _ = await waitEnded(until: clock.now.advanced(by: .seconds(2)), clock: clock)
                    return .failure(PowerMeterError(.timeout, "\(name): `\(argv[0])` (pid \(child.pid)) ignored SIGINT and SIGTERM, \(stopDeadline.seconds) each (killed); its output: \(tail)"))
                }
            }
        }
        await drainer?.value
        if let endedEarly {
            return .failure(PowerMeterError(.io, "\(name): `\(argv[0])` ended by itself (\(endedEarly)) before the bench stopped it; its output: \(tail)"))
        }
        if let ended, ended != .exited(0), ended != .signalled(SIGINT), ended != .exited(130) {
            return .failure(PowerMeterError(.io, "\(name): `\(argv[0])` ended with \(ended) when stopped; its output: \(tail)"))
        }
        let text: String
        do { text = try String(contentsOfFile: csvPath, encoding: .utf8) } catch {
            return .failure(PowerMeterError(.io, "\(name): `\(argv[0])` left no readable CSV at \(csvPath) (\(error.localizedDescription)); its output: \(tail)"))
        }
        do {
            let file = try CurrentTraceCSV.read(text, file: csvPath)
            let shift = file.clock == .unix ? startedAt.date.timeIntervalSince1970 : 0
            return .success(CurrentSamples(times: file.samples.times.map { $0 - shift }, microamperes: file.samples.microamperes))
        } catch {
            return .failure(PowerMeterError(error.kind, "\(name): \(error.message)"))
        }
    }

    /// The instant the program was started, on the caller's clock.
    package var startInstant: ContinuousClock.Instant? { startedAt?.instant }

    /// True once the program has ended (its watcher reaped it) by `deadline` on `clock`; the wait holds in a cancelled
    /// task too, as stopping after an interrupt still needs its grace period.
    private func waitEnded<C: Clock<Duration>>(until deadline: C.Instant, clock: C) async -> Bool {
        let changed = self.changed
        while true {
            let seen = changed.count
            if ended != nil { return true }
            if clock.now >= deadline { return false }
            await Task { await changed.wait(after: seen, until: deadline, clock: clock) }.value
        }
    }

    private func record(_ event: ChildEvent) {
        if case .ended(let termination) = event { ended = termination } else { output.record(event) }
        changed.signal()
    }

    private var tail: String { output.tail }
}
