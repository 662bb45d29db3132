@testable import ControllerServer
@testable import SocketServing
@testable import Support
@testable import AirServer
import Foundation
@testable import EventLoops
import Testing
import TestSupport

/// `hil serve`'s server on a stepped clock that only the test moves, serving a controller of the test's
/// own (`AnsweringAdapter`) to hosts on a Unix socket: a host that sends and receives nothing for the idle
/// timeout is closed exactly then, and the controller is free for the next host.
@Suite struct AdapterServerIdleTests {
    static let idleTimeout = Duration.seconds(300)
    /// HCI Reset as H4, and its Command Complete.
    static let reset: [UInt8] = [0x01, 0x03, 0x0C, 0x00]
    static let resetComplete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]

    /// Runs `body` with a server on a fresh socket path, stepped `time`, and its announcements; shuts it down after.
    static func serve(_ time: VirtualTime, _ body: (String, LogLines) async throws -> Void) async throws {
        let path = "/tmp/hil-idle-\(UUID().uuidString.prefix(8))"
        let announced = LogLines()
        announced.stamp(on: time.clock)
        let server = try await AdapterServer.start(adapter: AnsweringAdapter(), options: .init(
            name: "test:adapter", listen: .unix(path: path), idleTimeout: idleTimeout, clock: time.clock,
            announce: { announced.append($0) }, log: { announced.append($0) }))
        do {
            try await body(path, announced)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test func aHostThatSendsAndReceivesNothingIsClosedExactlyAtTheIdleTimeoutAndTheNextOneIsServed() async throws {
        try await withSteppedTime { time in
            let start = time.now
            try await Self.serve(time) { path, announced in
                let host = try #require(SocketOptions.connectUnix(path))
                defer { _ = SocketOptions.closeDescriptor(host) }
                _ = await announced.line { $0.hasPrefix("client 1 connected") }
                let deadline = await time.nextDeadline()
                #expect(deadline == start + Self.idleTimeout)
                await time.advance(to: deadline - .nanoseconds(1))
                #expect(!announced.all.contains { $0.hasPrefix("client 1 disconnected") }, "\(announced.all)")
                await time.advance(by: .nanoseconds(1))
                let gone = await announced.line { $0.hasPrefix("client 1 disconnected") }
                #expect(gone.text == "client 1 disconnected: idle: nothing sent or received for 300 s (--idle-timeout); the controller is free for the next host")
                #expect(gone.at == deadline)
                #expect(try await offPool { BlockingSocket.readsEndOfStream(host) }, "its connection is closed")

                let next = try #require(SocketOptions.connectUnix(path))
                defer { _ = SocketOptions.closeDescriptor(next) }
                _ = await announced.line { $0.hasPrefix("client 2 connected") }
                #expect(BlockingSocket.write(next, Self.reset))
                #expect(try await offPool { BlockingSocket.readBytes(next, count: Self.resetComplete.count) } == Self.resetComplete,
                        "the next host has the controller")
            }
        }
    }

    @Test func aPacketEitherWayRestartsTheIdleTimeout() async throws {
        try await withSteppedTime { time in
            let start = time.now
            try await Self.serve(time) { path, announced in
                let host = try #require(SocketOptions.connectUnix(path))
                defer { _ = SocketOptions.closeDescriptor(host) }
                _ = await announced.line { $0.hasPrefix("client 1 connected") }
                #expect(await time.nextDeadline() == start + Self.idleTimeout)
                await time.advance(by: .seconds(100))
                #expect(BlockingSocket.write(host, Self.reset))
                #expect(try await offPool { BlockingSocket.readBytes(host, count: Self.resetComplete.count) } == Self.resetComplete)
                // The first look finds the packet of second 100 and looks again 300 s after it.
                await time.advance(to: start + Self.idleTimeout)
                let deadline = await time.nextDeadline()
                #expect(deadline == start + .seconds(100) + Self.idleTimeout)
                await time.advance(to: deadline - .nanoseconds(1))
                #expect(!announced.all.contains { $0.hasPrefix("client 1 disconnected") }, "\(announced.all)")
                await time.advance(by: .nanoseconds(1))
                #expect(await announced.line { $0.hasPrefix("client 1 disconnected: idle") }.at == deadline)
            }
        }
    }
}
