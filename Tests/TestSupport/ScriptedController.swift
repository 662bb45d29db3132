import Foundation
import Synchronization
@testable import HCIPackets
@testable import EventLoops
@testable import HCITransports
@testable import HostCore
#if canImport(Glibc)
import Glibc
#endif

/// A fake controller on the far end of a socket pair: it frames what the host writes and answers
/// through a script, so host behaviour (timeouts, closes, garbage) is tested over the real fd path.
///
/// It answers from a thread of its own, which no loop of a virtual clock runs: a host on it keeps its
/// deadlines on the test's stepped clock (`makeHost(clock:)`), which moves only when the test advances it.
/// A test awaits what the host sent with `packets(until:)` or `command(_:)`, never by polling.
public final class ScriptedController: Sendable {
    /// What the script does with one command: bytes to write back (H4, indicator included).
    public typealias Script = @Sendable (HCICommandPacket, ScriptedController) -> [UInt8]

    public let hostFD: Int32
    public let controllerFD: Int32
    private let script: Script
    private let received = Mutex(Received())
    private let closed = Mutex(false)

    /// What the host sent, and the tests waiting for it to satisfy a condition.
    private struct Received {
        var packets: [HCIPacket] = []
        var waiters: [(condition: @Sendable ([HCIPacket]) -> Bool, continuation: CheckedContinuation<[HCIPacket], Never>)] = []
        /// The host's end closed: nothing more comes.
        var ended = false
    }

    public init(script: @escaping Script) throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else {
            throw TestFailure("socketpair failed: \(errno)")
        }
        hostFD = fds[0]
        controllerFD = fds[1]
        self.script = script
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// A host on this controller's socket, its deadlines on `clock` (a test's stepped clock).
    public func makeHost(commandTimeout: Duration = .seconds(2), clock: LoopClock) throws -> HCIHost {
        try HCIHost(transport: FileDescriptorTransport(moniker: "scripted", fd: hostFD, clock: clock), commandTimeout: commandTimeout)
    }

    /// Every packet the host sent, in order.
    public var packets: [HCIPacket] { received.withLock { $0.packets } }
    public var commands: [HCICommandPacket] { Self.commands(packets) }
    /// The ACL data packets the host sent, in order.
    public var aclPackets: [ACLDataPacket] { Self.acl(packets) }

    public static func commands(_ packets: [HCIPacket]) -> [HCICommandPacket] {
        packets.compactMap { if case .command(let command) = $0 { command } else { nil } }
    }

    public static func acl(_ packets: [HCIPacket]) -> [ACLDataPacket] {
        packets.compactMap { if case .aclData(let packet) = $0 { packet } else { nil } }
    }

    /// Waits until the packets the host sent so far satisfy `condition` (checked now and as each arrives)
    /// and returns them; returns them as they are once the host's end has closed, satisfied or not.
    public func packets(until condition: @escaping @Sendable ([HCIPacket]) -> Bool) async -> [HCIPacket] {
        await withCheckedContinuation { (continuation: CheckedContinuation<[HCIPacket], Never>) in
            let now = received.withLock { state -> [HCIPacket]? in
                if state.ended || condition(state.packets) { return state.packets }
                state.waiters.append((condition, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Waits until the host's first command matching `match` reached the controller (nil: the host's end
    /// closed first).
    public func command(where match: @escaping @Sendable (HCICommandPacket) -> Bool) async -> HCICommandPacket? {
        Self.commands(await packets { Self.commands($0).contains(where: match) }).first(where: match)
    }

    /// Waits until the host's first `opcode` command reached the controller (nil: the host's end closed first).
    public func command(_ opcode: HCIOpcode) async -> HCICommandPacket? {
        await command { $0.opcode == opcode }
    }

    /// Writes raw bytes to the host.
    public func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(controllerFD, $0.baseAddress, $0.count) }
    }

    /// Closes the controller's end: the host sees its peer close.
    public func close() {
        let wasOpen = closed.withLock { state in
            defer { state = true }
            return !state
        }
        if wasOpen { shutdown(controllerFD, Int32(SHUT_RDWR)) }
    }

    private func serve() {
        var framer = H4Framer()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(controllerFD, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            guard let packets = try? framer.feed(buffer[0..<count]) else { break }
            for packet in packets {
                record(packet)
                if case .command(let command) = packet {
                    let reply = script(command, self)
                    if !reply.isEmpty { write(reply) }
                }
            }
        }
        received.withLock { $0.ended = true }
        record(nil)
        Glibc.close(controllerFD)
    }

    /// Appends `packet` (nil: none, the host's end closed) and resumes the waiters it satisfies.
    private func record(_ packet: HCIPacket?) {
        let ready = received.withLock { state -> [(CheckedContinuation<[HCIPacket], Never>, [HCIPacket])] in
            if let packet { state.packets.append(packet) }
            let (packets, ended) = (state.packets, state.ended)
            var ready: [(CheckedContinuation<[HCIPacket], Never>, [HCIPacket])] = []
            state.waiters.removeAll { waiter in
                guard ended || waiter.condition(packets) else { return false }
                ready.append((waiter.continuation, packets))
                return true
            }
            return ready
        }
        for (continuation, packets) in ready { continuation.resume(returning: packets) }
    }

    // MARK: Replies

    /// H4 Command Complete: status 0 then `returnParameters`.
    public static func commandComplete(_ opcode: HCIOpcode, credits: UInt8 = 1, status: UInt8 = 0, _ returnParameters: [UInt8] = []) -> [UInt8] {
        let parameters = [credits, UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8), status] + returnParameters
        return [0x04, 0x0E, UInt8(parameters.count)] + parameters
    }

    public static func commandStatus(_ opcode: HCIOpcode, status: UInt8 = 0, credits: UInt8 = 1) -> [UInt8] {
        [0x04, 0x0F, 0x04, status, credits, UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8)]
    }

    public static func event(_ code: UInt8, _ parameters: [UInt8]) -> [UInt8] {
        [0x04, code, UInt8(parameters.count)] + parameters
    }

    /// Answers the initialization sequence like a small LE-only 5.0 controller with 27-byte × 2 LE buffers.
    public static func healthy(_ command: HCICommandPacket) -> [UInt8]? {
        switch command.opcode {
        case .reset, .setEventMask, .leSetEventMask:
            return commandComplete(command.opcode)
        case .readLocalVersionInformation:
            return commandComplete(command.opcode, [0x09, 0x00, 0x00, 0x09, 0x59, 0x00, 0x00, 0x00])
        case .readBDADDR:
            return commandComplete(command.opcode, [0x42, 0x00, 0x00, 0x01, 0xAA, 0x00])
        case .readLocalSupportedCommands:
            return commandComplete(command.opcode, [UInt8](repeating: 0, count: 64))
        case .readLocalSupportedFeatures:
            return commandComplete(command.opcode, [0, 0, 0, 0, 0x60, 0, 0, 0])
        case .readBufferSize:
            return commandComplete(command.opcode, [0, 0, 0, 0, 0, 0, 0])
        case .leReadLocalSupportedFeatures:
            return commandComplete(command.opcode, [0x01, 0, 0, 0, 0, 0, 0, 0])
        case .leReadBufferSize:
            return commandComplete(command.opcode, [27, 0, 2])
        default:
            return nil
        }
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Parses "01 03 0c 00" (or "01030c00", as a fixture or an RFC prints it) into bytes.
public func hexBytes(_ text: String) -> [UInt8] {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).flatMap { token in
        stride(from: 0, to: token.count, by: 2).compactMap { start in
            let from = token.index(token.startIndex, offsetBy: start)
            return UInt8(token[from..<(token.index(from, offsetBy: 2, limitedBy: token.endIndex) ?? token.endIndex)], radix: 16)
        }
    }
}
