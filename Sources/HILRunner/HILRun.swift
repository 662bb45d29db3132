#if canImport(Glibc)
import Glibc
import HILResults
import Rigs
import BenchOperations
#elseif canImport(Darwin)
import Darwin
#endif
import DeviceControl
import Foundation
import RigFormat

/// What `hil run` was asked to do.
public struct RunOptions: Sendable {
    /// The rig file; nil for `rigs/simulated.json` of the BluetoothHIL package.
    public var rig: URL?
    /// A user's package of suites; nil for the built-in suites.
    public var package: URL?
    /// A regular expression over test IDs.
    public var filter: String?
    /// The results directory.
    public var out: URL
    /// `HIL_REPEAT`.
    public var repeatCount: Int
    /// Deadline for build and tests together.
    public var timeout: Duration
    /// How long to wait for a rig another run holds.
    public var wait: Duration
    /// The command line, recorded in the lock and the results.
    public var command: String
    public var swift: String
    public var lockDirectory: URL
    /// The BluetoothHIL package; nil to locate it (`PackageLocator`).
    public var hilPackage: URL?
    /// How often the event stream, records and progress are polled.
    public var pollInterval: Duration
    /// An already-built test bundle to run directly instead of `swift build` + `swift test` (`--test-bundle`).
    public var testBundle: URL?

    public init(rig: URL? = nil, package: URL? = nil, filter: String? = nil, out: URL, repeatCount: Int = 1,
                timeout: Duration = .seconds(30 * 60), wait: Duration = .zero, command: String = "hil run",
                swift: String = ProcessInfo.processInfo.environment["HIL_SWIFT"] ?? "swift",
                lockDirectory: URL = RigLock.defaultDirectory(), hilPackage: URL? = nil, pollInterval: Duration = .milliseconds(100),
                testBundle: URL? = nil) {
        self.testBundle = testBundle
        self.rig = rig
        self.package = package
        self.filter = filter
        self.out = out
        self.repeatCount = repeatCount
        self.timeout = timeout
        self.wait = wait
        self.command = command
        self.swift = swift
        self.lockDirectory = lockDirectory
        self.hilPackage = hilPackage
        self.pollInterval = pollInterval
    }
}

/// How a run ended: its outcome (the exit status), the summary when cases ran, the message when it
/// could not run.
public struct RunReport: Sendable {
    public var outcome: RunOutcome
    public var summary: RunSummary?
    public var message: String?
    public var results: ResultsLayout?
}

/// `hil run`: lock the rig, build and run the suites under Swift Testing, follow the event stream, the
/// records and the loop progress as they grow, print progress, re-write junit.xml, results.json and
/// report.html after every finished case, stop `swift test` at the deadline, and decide the exit status.
public enum HILRun {
    public static func run(_ options: RunOptions, output: RunOutput) async -> RunReport {
        var printer = ProgressPrinter(output)
        func fail(_ outcome: RunOutcome, _ message: String, _ layout: ResultsLayout? = nil) -> RunReport {
            printer.clearStatus()
            output.err("hil run: \(message)\n")
            return RunReport(outcome: outcome, summary: nil, message: message, results: layout)
        }

        // What to run, on what, into where: problems here are usage errors.
        let hilPackage = options.hilPackage ?? PackageLocator.bluetoothHIL()
        let suites: SwiftTestInvocation.Suites
        if let package = options.package {
            let directory = package.standardizedFileURL
            guard PackageLocator.isPackage(directory) else { return fail(.usageError, "--package \(package.path): no Package.swift there") }
            suites = .package(directory)
        } else {
            guard let hilPackage else {
                return fail(.usageError, "cannot find the BluetoothHIL package above the hil executable or the current directory; set HIL_PACKAGE_DIR, or run your own suites with --package PATH")
            }
            suites = .builtIn(hilPackage)
        }
        guard let rigURL = options.rig?.standardizedFileURL ?? hilPackage?.appendingPathComponent("rigs/simulated.json") else {
            return fail(.usageError, "no --rig given, and there is no BluetoothHIL package for the default rigs/simulated.json")
        }
        // The rig is read and checked with the one rig reader before anything else (the lock, the build):
        // a rig the suites would refuse is a usage error here, in one line.
        let rig: Rig
        do { rig = try Rig.load(path: rigURL.path) } catch { return fail(.usageError, error.description) }
        if let bundle = options.testBundle, !FileManager.default.isExecutableFile(atPath: bundle.path) {
            return fail(.usageError, "--test-bundle \(bundle.path): no executable test bundle there (build one with `swift build --build-tests`)")
        }
        let layout = ResultsLayout(options.out)
        do {
            try layout.create()
            try layout.removePreviousRun()
        } catch {
            return fail(.usageError, "results directory: \(error)")
        }

        // The bench: one run at a time.
        let notice: @Sendable (String) -> Void = { text in
            if output.isInteractive { output.out(text + "\n") } else { output.err("hil run: \(text)\n") }
        }
        let lock: RigLock
        do {
            lock = try await RigLock.acquire(rigName: rig.name, command: options.command, wait: options.wait,
                                             directory: options.lockDirectory, notice: notice)
        } catch {
            return fail(.infrastructureError, error.description, layout)
        }
        defer { lock.release() }

        let invocation = SwiftTestInvocation(suites: suites, filter: options.filter, layout: layout, rig: rigURL,
                                             repeatCount: options.repeatCount, swift: options.swift, testBundle: options.testBundle)
        let context = RunContext(rig: rigURL.path, rigName: rig.name, gitCommit: await gitCommit(suites.directory),
                                 package: suites.directory.path, command: options.command, started: Date(), repeatCount: options.repeatCount)
        do { try context.write(to: layout) } catch { return fail(.usageError, "results directory: \(error)", layout) }

        let clock = ContinuousClock()
        let deadline = clock.now + options.timeout
        let timeoutText = ProgressText.duration(options.timeout / .seconds(1))

        // Build first, so a compile error is told apart from a test failure (nothing to build with --test-bundle).
        var shownSecond = -1
        if let buildCommand = invocation.buildCommand {
            let build = await supervise(buildCommand, environment: [:], log: layout.log, deadline: deadline,
                                        pollInterval: options.pollInterval) { elapsed in
                guard Int(elapsed) != shownSecond else { return }
                shownSecond = Int(elapsed)
                printer.status("building the tests of \(suites.directory.lastPathComponent)… \(shownSecond) s")
            }
            switch build.end {
            case .exited(.exited(0)):
                break
            case .couldNotStart(let reason):
                return fail(.infrastructureError, "cannot start `\(buildCommand.joined(separator: " "))`: \(reason)", layout)
            case .exited(let termination):
                let lines = build.tail.lines(12).map { "    \($0)" }.joined(separator: "\n")
                return fail(.infrastructureError, "building the tests of \(suites.directory.path) failed (\(termination)); full log: \(layout.log.path)\n\(lines)", layout)
            case .timedOut:
                return fail(.infrastructureError, "building the tests of \(suites.directory.path) did not finish within \(timeoutText) (--timeout); stopped it (PID \(build.pid)); log: \(layout.log.path)", layout)
            case .cancelled:
                return fail(.infrastructureError, "interrupted while building the tests; stopped the build (PID \(build.pid))", layout)
            }
        }

        // Run, following the event stream.
        var follower = RunFollower(layout: layout, context: context, printer: printer)
        let test = await supervise(invocation.testCommand, environment: invocation.environment, log: layout.log, deadline: deadline,
                                   pollInterval: options.pollInterval) { elapsed in
            follower.poll(elapsed: elapsed)
        }
        follower.poll(elapsed: 0, final: true)
        printer = follower.printer

        // How it ended.
        var abort: ResultsAssembler.Abort?
        var problems = follower.problems()
        let runningText = follower.run.orderedCases.last(where: { !$0.hasEnded && !$0.isSuiteLevel }).map { " while \(TestIDParts($0.key.testID).displayPath) was running" } ?? ""
        switch test.end {
        case .couldNotStart(let reason):
            return fail(.infrastructureError, "cannot start `\(invocation.testCommand.joined(separator: " "))`: \(reason)", layout)
        case .timedOut:
            abort = .init("swift test did not finish within \(timeoutText) (--timeout)\(runningText); stopped it (PID \(test.pid))")
        case .cancelled:
            abort = .init("interrupted\(runningText); stopped swift test (PID \(test.pid))")
        case .exited(let termination):
            if follower.run.runStarted == nil {
                let lines = test.tail.lines(8).map { "    \($0)" }.joined(separator: "\n")
                problems.append(.init("swift test ended (\(termination)) before the test run started; log: \(layout.log.path)\n\(lines)", outcome: .infrastructureError))
            } else if follower.run.runEnded == nil {
                abort = .init("the test process ended (\(termination)) before the run finished\(runningText); log: \(layout.log.path)")
            }
        }
        if let incomplete = follower.incompleteEventLine, abort == nil {
            problems.append(.init("\(layout.events.path):\(incomplete): the event stream ends in the middle of a line", outcome: .infrastructureError))
        }
        var assembly = follower.assemble(abort: abort, problems: problems, isComplete: true)
        if case .exited(let termination) = test.end, follower.run.runEnded != nil, !termination.succeeded,
           !assembly.cases.contains(where: { $0.verdict == .failed || $0.verdict == .infrastructureError }) {
            let outcome: RunOutcome = { if case .signalled = termination { return .infrastructureError } else { return .productFailure } }()
            assembly.problems.append(.init("swift test ended (\(termination)) although the event stream reports no failure (an XCTest test?); log: \(layout.log.path)", outcome: outcome))
        }
        if assembly.cases.isEmpty && assembly.problems.isEmpty && abort == nil {
            let what = invocation.combinedFilter.map { "no test matched --filter '\($0)'" } ?? "the package has no Swift Testing tests"
            assembly.problems.append(.init("\(what) in \(suites.directory.path)", outcome: .usageError))
        }
        do { try ResultsWriter.write(assembly, to: layout) } catch {
            assembly.problems.append(.init("cannot write the results: \(error)", outcome: .infrastructureError))
        }
        // Cases that finished with this final pass (a run cut off) are printed too.
        for result in assembly.cases where !follower.printedCases.contains(result.caseName) { printer.caseFinished(result) }
        let summary = assembly.summary
        printer.summary(summary, layout: layout)
        return RunReport(outcome: summary.outcome, summary: summary, message: nil, results: layout)
    }

    /// `git -C DIR rev-parse HEAD`, or nil (not a repository, no git, or slower than 5 s).
    static func gitCommit(_ directory: URL) async -> String? {
        guard let result = try? await ChildProcess.run(["git", "-C", directory.path, "rev-parse", "HEAD"], deadline: .seconds(5)),
              result.termination.succeeded else { return nil }
        let commit = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return commit.isEmpty ? nil : commit
    }

    enum End: Sendable {
        case exited(Termination)
        case timedOut
        case cancelled
        case couldNotStart(String)
    }

    struct Supervised: Sendable {
        var end: End
        var pid: pid_t
        var tail: OutputTail
    }

    /// Runs `argv` to its end, its output appended to `log`, calling `tick` every `pollInterval` with the
    /// seconds elapsed. At the deadline or on cancellation it stops the child and everything it started
    /// (SIGINT, so that `swift test` stops its test process; then SIGKILL to what is left), waiting at most
    /// 10 s for that.
    static func supervise(_ argv: [String], environment: [String: String], log: URL, deadline: ContinuousClock.Instant,
                          pollInterval: Duration, tick: (Double) -> Void) async -> Supervised {
        let tail = OutputTail()
        let child: ChildProcess
        do { child = try ChildProcess.spawn(argv, environment: environment) } catch {
            return Supervised(end: .couldNotStart("\(error)"), pid: 0, tail: tail)
        }
        let ended = Completion<Termination>()
        let logPath = log.path
        let header = Data("$ \(argv.joined(separator: " "))\n".utf8)
        let pump = Task {
            let fd = open(logPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            func append(_ bytes: some DataProtocol) {
                guard fd >= 0 else { return }
                let data = Data(bytes)
                _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            }
            append(header)
            for await event in child.events {
                switch event {
                case .stdout(let bytes), .stderr(let bytes):
                    append(bytes)
                    tail.append(bytes)
                case .ended(let termination):
                    append(Data("[\(termination)]\n".utf8))
                    ended.set(termination)
                }
            }
            if fd >= 0 { close(fd) }
        }
        let clock = ContinuousClock()
        let start = clock.now
        var reason: End?
        while ended.value == nil {
            tick((clock.now - start) / .seconds(1))
            if Task.isCancelled { reason = .cancelled; break }
            if clock.now >= deadline { reason = .timedOut; break }
            try? await Task.sleep(for: pollInterval)
        }
        if let reason {
            await stop(child, ended: ended)
            pump.cancel()
            return Supervised(end: reason, pid: child.pid, tail: tail)
        }
        await pump.value
        return Supervised(end: .exited(ended.value ?? .signalled(SIGKILL)), pid: child.pid, tail: tail)
    }

    /// SIGINT to the child (SwiftPM then stops its test process), up to 5 s; then SIGKILL to the child's
    /// group and to every descendant seen before, up to 5 s more. Never touches other processes.
    static func stop(_ child: ChildProcess, ended: Completion<Termination>) async {
        let tree = ProcessTree.descendants(of: child.pid)
        _ = kill(child.pid, SIGINT)
        if await waitUntil(seconds: 5, { ended.value != nil }) == false {
            child.signalGroup(SIGKILL)
            ProcessTree.signal(tree + ProcessTree.descendants(of: child.pid), SIGKILL)
            _ = await waitUntil(seconds: 5) { ended.value != nil }
        }
        // The test process sits in a process group of its own: make sure it went too.
        if tree.contains(where: ProcessTree.isAlive) {
            ProcessTree.signal(tree, SIGTERM)
            if await waitUntil(seconds: 1, { !tree.contains(where: ProcessTree.isAlive) }) == false {
                ProcessTree.signal(tree, SIGKILL)
            }
        }
    }

    /// Polls `condition` every 50 ms for at most `seconds`; true when it held.
    static func waitUntil(seconds: Double, _ condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + .milliseconds(Int64(seconds * 1000))
        while clock.now < end {
            if condition() { return true }
            await pause(.milliseconds(50))
        }
        return condition()
    }

    /// Sleeps even in a cancelled task (stopping a child after an interrupt still needs its grace period).
    static func pause(_ duration: Duration) async {
        await Task.detached { try? await Task.sleep(for: duration) }.value
    }
}
