@testable import SocketServing
@testable import Support
@testable import AirServer
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What the served air holds for its clients, on its virtual time (`ServedAirFixture`): at most
/// `maximumConnections` H4 hosts and `maximumClients` control clients, and a control client that floods or
/// never reads is dropped with a line naming it while the others are answered. (The same under real time
/// and many clients at once: `ManyClientsTests`.) Joining a controller to the air suspends the server even
/// on virtual time, so a limit checked before it and claimed after lets every host in here too.
@Suite struct ServedAirLimitsTests {
    /// "(pid 4711, uid 1000)": how the server names a client of this process on a Unix socket.
    static let ourCredentials = "(pid \(getpid()), uid \(getuid()))"

    @Test func oneHostMoreThanTheLimitIsRefusedWithALineAndTheOthersAreServed() async throws {
        try await ServedAirFixture.with(maximumConnections: 4) { air in
            let fds = try (1...5).map { _ in try #require(SocketOptions.connectUnix(air.socketPath)) }
            defer { for fd in fds { _ = SocketOptions.closeDescriptor(fd) } }
            let verdicts = await air.log.lines(where: { $0.hasSuffix(": opened") || $0.contains(": refused connection ") }, count: 5)
            let refused = verdicts.filter { $0.text.contains(": refused connection ") }
            #expect(verdicts.count - refused.count == 4, "\(verdicts.map(\.text))")
            #expect(refused.map(\.text) == ["hil sim serve: unix:\(air.socketPath): refused connection 5 \(Self.ourCredentials): 4 hosts are connected already (the limit)"])
            #expect(await air.server.answer("status").contains("; connections 4 "))
            // (Only once it was refused: a served host's socket never ends, and the test would wait for ever.)
            if refused.count == 1 { #expect(try await offPool { BlockingSocket.readsEndOfStream(fds[4]) }, "the refused host's socket is closed") }
        }
    }

    /// One client floods empty lines, one asks 60 times and reads nothing; both are dropped with a line that
    /// names them, and a third is answered as before.
    @Test func aFloodingAndANeverReadingControlClientAreDroppedAndAnotherIsAnswered() async throws {
        let limits = ControlLimits(maximumQueuedAnswerBytes: 256, socketSendBuffer: 4096)
        try await ServedAirFixture.with(controlLimits: limits) { air in
            let flooder = try #require(SocketOptions.connectUnix(air.controlPath))
            let neverReader = try #require(SocketOptions.connectUnix(air.controlPath))
            let good = try #require(SocketOptions.connectUnix(air.controlPath))
            defer { for fd in [flooder, neverReader, good] { _ = SocketOptions.closeDescriptor(fd) } }
            _ = BlockingSocket.write(flooder, Array(String(repeating: "\n", count: 65_536).utf8))
            _ = BlockingSocket.write(neverReader, Array(String(repeating: "status\n", count: 60).utf8))
            let prefix = "hil sim serve: control client "
            let flooded = await air.log.line { $0.hasPrefix(prefix) && $0.contains(": dropped: flooding") }.text
            #expect(flooded == "\(prefix)1 \(Self.ourCredentials) on unix:\(air.controlPath): dropped: flooding: sent more than 64 requests ahead of their answers")
            let notReading = await air.log.line { $0.hasPrefix(prefix) && $0.contains(": dropped: not reading") }.text
            #expect(notReading.hasPrefix("\(prefix)2 \(Self.ourCredentials) on unix:\(air.controlPath): dropped: not reading: "), "\(notReading)")
            #expect(notReading.hasSuffix(" bytes of answers waiting for it (the limit is 256)"), "\(notReading)")
            #expect(BlockingSocket.write(good, Array("power heart-rate status\n".utf8)))
            #expect(try await offPool { BlockingSocket.readLines(good, count: 1) } == ["ok heart-rate on"])
            #expect(try await offPool { BlockingSocket.readsEndOfStream(flooder) }, "the flooder's socket is closed")
            #expect(try await offPool { BlockingSocket.readsEndOfStream(neverReader) }, "the never-reader's socket is closed")
        }
    }

    @Test func oneControlClientMoreThanTheLimitIsRefusedWithALine() async throws {
        try await ServedAirFixture.with(controlLimits: ControlLimits(maximumClients: 2)) { air in
            let fds = try (1...3).map { _ in try #require(SocketOptions.connectUnix(air.controlPath)) }
            defer { for fd in fds { _ = SocketOptions.closeDescriptor(fd) } }
            let refused = await air.log.line { $0.contains(": refused: ") }.text
            #expect(refused == "hil sim serve: control client 3 \(Self.ourCredentials) on unix:\(air.controlPath): refused: 2 control clients are connected already")
            #expect(try await offPool { BlockingSocket.readsEndOfStream(fds[2]) })
            for fd in fds.prefix(2) {
                #expect(BlockingSocket.write(fd, Array("help\n".utf8)))
                #expect(try await offPool { BlockingSocket.readLines(fd, count: 1) }.first?.hasPrefix("ok commands:") == true)
            }
        }
    }

    /// `quit` stays, from whoever can connect: the log names who asked. A unix: control socket is its
    /// owner's alone (mode 0600), whatever the umask.
    @Test func quitIsLoggedWithWhoAskedAndTheControlSocketIsTheOwnersAlone() async throws {
        try await ServedAirFixture.with { air in
            var info = stat()
            #expect(lstat(air.controlPath, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
            let fd = try #require(SocketOptions.connectUnix(air.controlPath))
            defer { _ = SocketOptions.closeDescriptor(fd) }
            #expect(BlockingSocket.write(fd, Array("quit\n".utf8)))
            #expect(try await offPool { BlockingSocket.readLines(fd, count: 1) } == ["ok quit"])
            let asked = await air.log.line { $0.contains("quit asked by") }.text
            #expect(asked == "hil sim serve: quit asked by control client 1 \(Self.ourCredentials) on unix:\(air.controlPath)")
        }
    }
}
