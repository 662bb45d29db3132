import Foundation
import Synchronization
import Testing
@testable import HCI
#if canImport(Glibc)
import Glibc
#endif

/// A controller that floods the host with advertising reports and never answers: the host's command
/// deadline still fires (the transport reads a bounded amount per loop turn, so timers run).
@Suite struct StreamingControllerTests {
    /// LE Advertising Report (Core v5.4 Vol 4 Part E §7.7.65.2), one report, no data, as H4 bytes.
    static let report: [UInt8] = [0x04, 0x3E, 12, 0x02, 0x01, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0xC0, 0x00, 0xC8]

    @Test func aFloodOfReportsDoesNotStarveTheCommandDeadline() async throws {
        let controller = try ScriptedController { _, _ in [] }   // answers nothing
        let flooding = Flag()
        let chunk = [UInt8]((0..<2000).flatMap { _ in Self.report })
        let flood = Thread {
            let until = ContinuousClock.now + .seconds(20)     // bounded, whatever happens to the test
            while flooding.isSet, ContinuousClock.now < until {
                // MSG_NOSIGNAL: once the host has closed its end, a write fails instead of raising SIGPIPE.
                let sent = chunk.withUnsafeBytes { send(controller.controllerFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent < 0 && errno != EAGAIN && errno != EINTR { break }
            }
        }
        flood.start()
        defer {
            flooding.clear()
            controller.close()
        }
        let host = try controller.makeHost(commandTimeout: .milliseconds(300))
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await host.initialize(timeout: .milliseconds(300))
            Issue.record("Reset was answered by a controller that answers nothing")
        } catch {
            guard case .commandTimeout = error else { Issue.record("expected a command timeout, got \(error)"); return }
        }
        // The flood goes on for 20 s; a starved deadline would only fire once it stopped.
        #expect(clock.now - start < .seconds(10), "the 300 ms deadline fired only after \(clock.now - start)")
        await host.close()
    }

    /// Whether the flood goes on.
    final class Flag: Sendable {
        private let state = Mutex(true)
        var isSet: Bool { state.withLock { $0 } }
        func clear() { state.withLock { $0 = false } }
    }
}
