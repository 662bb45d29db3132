@testable import SocketServing
@testable import Support
@testable import AirServer
import Foundation
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `hil sim serve`'s server as the CLI runs it — on real time, its own loop apart from the air's — under
/// many real socket clients at once: hosts that all connect together, control clients that flood or never
/// read beside one that asks. The limits themselves are `ServedAirLimitsTests`', on virtual time; here the
/// server's own threads and Swift's pool run as they do in production, so the wall clock bounds the waits.
@Suite(.tags(.peer)) struct ManyClientsTests {
    /// A served air on real time with a unix listener and a control socket; its log lines go to `log`.
    static func serve<T>(_ log: @escaping @Sendable (String) -> Void, _ body: (SimulatedAirServer, String, String) async throws -> T) async throws -> T {
        let directory = "/tmp/hil-many-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let air = "\(directory)/air", control = "\(directory)/ctl"
        let server = try await SimulatedAirServer.start(rig: try ServedAirFixture.rig(),
                                                        options: .init(listen: [.unix(path: air)], control: .unix(path: control), log: log))
        do {
            let result = try await body(server, air, control)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// 200 hosts connect at once (from 8 threads): exactly 16 are served, and each of the other 184 is
    /// refused with its line. Before the slot was claimed at the accept, the check and the insert were
    /// separated by awaits and all 200 were served.
    @Test func twoHundredHostsAtOnceGetExactlySixteenServedAndTheRestRefused() async throws {
        let (verdicts, sink) = AsyncStream.makeStream(of: String.self)
        try await Self.serve({ line in
            if line.hasSuffix(": opened") || line.contains(": refused connection ") { sink.yield(line) }
        }) { server, air, _ in
            let fds = try await offPool {
                let made = Mutex<[Int32]>([])
                DispatchQueue.concurrentPerform(iterations: 8) { _ in
                    for _ in 0..<25 { if let fd = SocketOptions.connectUnix(air) { made.withLock { $0.append(fd) } } }
                }
                return made.withLock { $0 }
            }
            defer { for fd in fds { _ = SocketOptions.closeDescriptor(fd) } }
            #expect(fds.count == 200, "every connect(2) was accepted by the kernel")
            // 60 s for 200 accepts and 16 controllers joining the air on a loaded 2-core machine (it takes
            // well under a second); the bound only ends a test whose verdicts never come.
            let lines = try await collect(verdicts, count: 200, within: .seconds(60), clock: ContinuousClock(), "verdict lines")
            let refused = lines.filter { $0.contains(": refused connection ") }
            #expect(lines.count - refused.count == 16, "served: \(lines.count - refused.count)")
            #expect(refused.count == 184)
            #expect(refused.allSatisfy { $0.hasSuffix(": 16 hosts are connected already (the limit)") }, "\(refused.prefix(3))")
            #expect(await server.answer("status").contains("; connections 16 "))
        }
    }

    /// Six control clients that ask without ever reading and two that flood, then a client that asks ten
    /// times, 100 ms apart: each answer comes within a second, and every misbehaving client is dropped with
    /// its line. Before, each never-reader's blocked write held a thread of Swift's pool for 2 s, and on two
    /// cores six of them held every thread: an answer took up to 2 s.
    @Test func aControlClientIsAnsweredPromptlyBesideClientsThatFloodOrNeverRead() async throws {
        let (drops, sink) = AsyncStream.makeStream(of: String.self)
        try await Self.serve({ line in if line.contains(": dropped: ") { sink.yield(line) } }) { _, _, control in
            let stop = StopFlag()
            let neverReaders = try (1...6).map { _ in try #require(SocketOptions.connectUnix(control)) }
            let flooders = try (1...2).map { _ in try #require(SocketOptions.connectUnix(control)) }
            defer { for fd in neverReaders + flooders { _ = SocketOptions.closeDescriptor(fd) } }
            for fd in neverReaders {
                // A client that asks 500 times a second and never reads, until it is dropped (or the test ends).
                Thread.detachNewThread {
                    let burst = Array(String(repeating: "status\n", count: 5).utf8)
                    while !stop.isSet, BlockingSocket.write(fd, burst) { usleep(10_000) }
                }
            }
            for fd in flooders { _ = BlockingSocket.write(fd, Array(String(repeating: "\n", count: 65_536).utf8)) }
            defer { stop.set() }
            // By now the never-readers' answers have filled their sockets: the old server's writes blocked.
            try await Task.sleep(for: .milliseconds(800))
            var latencies: [Duration] = []
            for _ in 0..<10 {
                let asked = ContinuousClock.now
                // 5 s only ends a request that never gets its answer; the bound that matters is below.
                let answer = try await offPool { try SimServeControlClient.request("power heart-rate status", to: .unix(path: control), timeout: .seconds(5)) }
                latencies.append(asked.duration(to: .now))
                #expect(answer == "ok heart-rate on")
                try await Task.sleep(for: .milliseconds(100))
            }
            // The answer takes a few milliseconds; a second allows for a loaded 2-core machine's scheduling
            // and is still below the 2 s that a never-reader's blocked write held the old server's pool.
            #expect(latencies.max().map { $0 < .seconds(1) } == true, "latencies: \(latencies)")
            // 10 s for the never-readers' 2 s stall timeout (or their queue's limit) on a loaded machine.
            let dropped = try await collect(drops, count: 8, within: .seconds(10), clock: ContinuousClock(), "drop lines")
            // The flooders' 65,536 lines at once are flooding. A never-reader asks without reading: which limit it
            // meets first depends on how far the server got through its requests before its socket filled — on a
            // loaded machine its requests outrun the answers (flooding), else its answers back up (not reading).
            let flooding = dropped.filter { $0.contains(": dropped: flooding: ") }.count
            let notReading = dropped.filter { $0.contains(": dropped: not reading: ") }.count
            #expect(flooding >= 2 && flooding + notReading == 8, "\(dropped)")
        }
    }
}

/// Tells the test's client threads to stop.
private final class StopFlag: Sendable {
    private let state = Mutex(false)
    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
}
