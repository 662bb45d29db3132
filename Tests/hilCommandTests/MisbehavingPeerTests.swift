import DeviceControl
import Foundation
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The real `hil` binary against controllers that misbehave on a Unix socket: one that accepts and closes
/// at once, and one that floods advertising reports and never answers Reset. Each command ends with
/// exit 2 and a one-line error that names what happened — never a signal (SIGPIPE), never a hang.
// Two minutes: each test runs one `hil` command against a local peer, which ends at its 2 s deadlines; the
// limit stops a hang (a command that never gives up) well before the peer phase's own.
@Suite(.timeLimit(.minutes(2)), .tags(.process)) struct MisbehavingPeerTests {
    /// One LE Advertising Report (Core v5.4 Vol 4 Part E §7.7.65.2) as H4 bytes.
    static let report: [UInt8] = [0x04, 0x3E, 12, 0x02, 0x01, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0xC0, 0x00, 0xC8]

    @Test(arguments: [["info"], ["scan", "--timeout", "2"], ["connect", "--name", "Nobody"], ["advertise", "--name", "HIL-X"], ["recover"]])
    func aPeerThatAcceptsAndClosesIsANamedTransportError(command: [String]) async throws {
        let peer = try MisbehavingPeer(serve: { fd in close(fd) })
        defer { peer.stop() }
        let hil = try ChildProgram.hilBinary()
        let ran = await runProgramCapturing(hil, [command[0], "unix:\(peer.path)"] + command.dropFirst())
        #expect(ran.termination == .exited(2), "hil \(command.joined(separator: " ")): \(String(describing: ran.termination)); stderr: \(ran.stderr)")
        let message = ran.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(message.contains("unix:\(peer.path)") && (message.contains("closed") || message.contains("EPIPE") || message.contains("ECONNRESET")),
                "\(message)")
    }

    @Test func aControllerThatFloodsReportsCannotHoldTheResetDeadline() async throws {
        let chunk = [UInt8]((0..<2000).flatMap { _ in Self.report })
        let peer = try MisbehavingPeer(serve: { fd in
            let until = ContinuousClock.now + .seconds(60)   // bounded, whatever happens to the test
            while ContinuousClock.now < until {
                let sent = chunk.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent < 0 && errno != EINTR { break }
            }
            close(fd)
        })
        defer { peer.stop() }
        let clock = ContinuousClock()
        let start = clock.now
        let ran = await runProgramCapturing(try ChildProgram.hilBinary(), ["info", "unix:\(peer.path)"])
        let took = start.duration(to: clock.now)
        #expect(ran.termination == .exited(2), "\(String(describing: ran.termination)); stderr: \(ran.stderr)")
        #expect(ran.stderr.contains("Reset") && ran.stderr.contains("no Command Complete"), "\(ran.stderr)")
        // The 2 s command deadline, not the 60 s flood, ends it: 30 s leaves room for the process's start-up and
        // the flood's CPU on a loaded 2-core machine, and is still half the flood.
        #expect(took < .seconds(30), "hil info took \(took) against a flooding controller")
    }
}

/// A Unix socket server on a thread of its own: every connection it accepts goes to `serve` (which owns
/// the descriptor) on that thread, in turn (each test makes one connection). No thread is started per
/// connection: starting one is a wait before the close, and in the CPU-heavy phase the accept-and-close
/// peer was once seen to close only after hil's 2 s Reset deadline.
final class MisbehavingPeer: Sendable {
    let path: String
    private let listener: Int32
    private let stopped = Mutex(false)

    init(serve: @escaping @Sendable (Int32) -> Void) throws {
        let path = "/tmp/hil-peer-\(UUID().uuidString.prefix(8))"
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in path.utf8.enumerated() { raw[index] = byte } }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        guard fd >= 0, bound == 0, listen(fd, 8) == 0 else { throw ChildProgramError("cannot listen on \(path): errno \(errno)") }
        listener = fd
        start(serve)
    }

    private func start(_ serve: @escaping @Sendable (Int32) -> Void) {
        let fd = listener
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                if stopped.withLock({ $0 }) { close(client); return }
                serve(client)
            }
        }
    }

    /// Stops accepting and removes the socket file.
    func stop() {
        stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }
}
