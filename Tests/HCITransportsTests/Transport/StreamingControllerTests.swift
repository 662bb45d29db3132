import Foundation
import Synchronization
import Testing
import TestSupport
@testable import HostCore
#if canImport(Glibc)
import Glibc
#endif

/// A controller that floods the host with advertising reports and never answers: the host's command
/// deadline still fires (the transport reads a bounded amount per loop turn, so timers run).
///
/// The flood is real (a thread writing as fast as the host reads); the deadline is the test's: the host keeps
/// it on a stepped clock, which the test moves to the deadline while the flood goes on.
@Suite struct StreamingControllerTests {
    /// LE Advertising Report (Core v5.4 Vol 4 Part E §7.7.65.2), one report, no data, as H4 bytes.
    static let report: [UInt8] = [0x04, 0x3E, 12, 0x02, 0x01, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0xC0, 0x00, 0xC8]

    @Test func aFloodOfReportsDoesNotStarveTheCommandDeadline() async throws {
        try await withSteppedTime { time in
            let controller = try ScriptedController { _, _ in [] }   // answers nothing
            let flood = Flood(fd: controller.controllerFD, chunk: [UInt8]((0..<2000).flatMap { _ in Self.report }))
            let host = try controller.makeHost(commandTimeout: .milliseconds(300), clock: time.clock)
            let start = time.now
            let initializing = Task { try await host.initialize(timeout: .milliseconds(300)) }
            // The Reset reached the controller, its deadline 300 ms from when it was sent, while the reports pour in.
            #expect(await controller.command(.reset) != nil)
            #expect(await time.nextDeadline() == start + .milliseconds(300))
            await time.advance(to: start + .milliseconds(300) - .nanoseconds(1))
            #expect(await host.sentCommands.map(\.packet.opcode) == [.reset], "failed before its deadline")
            // At the deadline, with the flood still going: a starved deadline would not fire until it stopped,
            // which it does only when this test stops it below.
            await time.advance(by: .nanoseconds(1))
            switch await initializing.result {
            case .success:
                Issue.record("Reset was answered by a controller that answers nothing")
            case .failure(let error):
                guard case .commandTimeout(let opcode, let timeout, _) = error as? HCIError else {
                    Issue.record("expected a command timeout, got \(error)")
                    break
                }
                #expect(opcode == .reset)
                #expect(timeout == .milliseconds(300))
            }
            #expect(flood.isRunning, "the flood ended before the deadline fired (\(flood.chunks) chunks written)")
            #expect(flood.chunks > 0)
            // The flood ends (the host still reads, so a write it is blocked in completes) before either end closes,
            // so its thread never writes to a descriptor number that another test may have reused.
            await flood.stop()
            controller.close()
            await host.close()
        }
    }

    /// A thread that writes `chunk` to `fd` again and again until stopped or a write fails.
    final class Flood: Sendable {
        private struct State {
            var stopping = false
            var running = true
            var chunks = 0
            var ended: [CheckedContinuation<Void, Never>] = []
        }

        private let state = Mutex(State())

        init(fd: Int32, chunk: [UInt8]) {
            let thread = Thread { [self] in
                while !state.withLock({ $0.stopping }) {
                    // MSG_NOSIGNAL: once the host has closed its end, a write fails instead of raising SIGPIPE.
                    let sent = chunk.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if sent < 0 && errno != EAGAIN && errno != EINTR { break }
                    if sent > 0 { state.withLock { $0.chunks += 1 } }
                }
                let ended = state.withLock { state in
                    state.running = false
                    defer { state.ended.removeAll() }
                    return state.ended
                }
                for waiter in ended { waiter.resume() }
            }
            thread.start()
        }

        /// Whether the thread still writes.
        var isRunning: Bool { state.withLock { $0.running } }
        /// How many writes the other end has taken.
        var chunks: Int { state.withLock { $0.chunks } }

        /// Asks the thread to stop and returns once it has.
        func stop() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let running = state.withLock { state -> Bool in
                    state.stopping = true
                    if state.running { state.ended.append(continuation) }
                    return state.running
                }
                if !running { continuation.resume() }
            }
        }
    }
}
