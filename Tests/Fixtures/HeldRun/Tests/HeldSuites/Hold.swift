// Test kind: endToEnd — part of the fixture package the interrupt tests run through `hil run` (not a test of BluetoothHIL).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import Testing

/// Where the test driving `hil run` stops this package's tests: the point named by `HELD_AT` writes
/// "POINT PID" into the FIFO `$HELD_DIR/reached` (waiting for the driver to read it), then waits until the
/// driver writes to the FIFO `$HELD_DIR/release` — or until `hil run` stops this process. Each point holds at
/// most once per process. With `HELD_IGNORE_STOP=1` the held process ignores SIGINT and SIGTERM and says
/// "stopping SIGNAL" into `reached` when one comes: `hil run` then needs its SIGKILL to stop it.
enum Hold {
    private static let held = Mutex(Set<String>())
    private static let environment = ProcessInfo.processInfo.environment

    /// Holds here if `HELD_AT` names `point` and it has not held before.
    static func at(_ point: String) {
        guard let directory = environment["HELD_DIR"], environment["HELD_AT"] == point,
              held.withLock({ $0.insert(point).inserted }) else { return }
        if environment["HELD_IGNORE_STOP"] == "1" { announceStops(into: directory) }
        say("\(point) \(getpid())", into: directory + "/reached")
        waitForRelease(directory + "/release")
    }

    /// Ignores SIGINT and SIGTERM, saying "stopping SIGINT" (or SIGTERM) into `reached` for each; the sources
    /// live as long as the process.
    private static func announceStops(into directory: String) {
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { say("stopping \(name)", into: directory + "/reached") }
            source.resume()
            _ = Unmanaged.passRetained(source as AnyObject)
        }
    }

    /// Writes one line into the FIFO at `path` (opening it waits for the driver to read).
    private static func say(_ line: String, into path: String) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Reads the FIFO at `path` to its end (opening it waits for the driver to write).
    private static func waitForRelease(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
        }
        close(fd)
    }
}

/// A suite trait holding at "beforeFirstCase" before the suite's tests run, and at "betweenCases" (when
/// other suites follow) or "afterLastCase" (when it is the only suite run) after they ran.
struct Holding: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        Hold.at("beforeFirstCase")
        try await function()
        Hold.at("betweenCases")
        Hold.at("afterLastCase")
    }
}

extension Trait where Self == Holding {
    static var holding: Holding { Holding() }
}
