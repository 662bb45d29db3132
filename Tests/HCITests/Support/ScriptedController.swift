import Foundation
import Synchronization
@testable import HCI
#if canImport(Glibc)
import Glibc
#endif

/// A fake controller on the far end of a socket pair: it frames what the host writes and answers
/// through a script, so host behaviour (timeouts, closes, garbage) is tested over the real fd path.
final class ScriptedController: Sendable {
    /// What the script does with one command: bytes to write back (H4, indicator included).
    typealias Script = @Sendable (HCICommandPacket, ScriptedController) -> [UInt8]

    let hostFD: Int32
    let controllerFD: Int32
    private let script: Script
    private let received = Mutex<[HCIPacket]>([])
    private let closed = Mutex(false)

    init(script: @escaping Script) throws {
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

    /// A host on this controller's socket.
    func makeHost(commandTimeout: Duration = .seconds(2)) throws -> HCIHost {
        try HCIHost(transport: FileDescriptorTransport(moniker: "scripted", fd: hostFD), commandTimeout: commandTimeout)
    }

    /// Every packet the host sent, in order.
    var packets: [HCIPacket] { received.withLock { $0 } }
    var commands: [HCICommandPacket] {
        packets.compactMap { if case .command(let command) = $0 { command } else { nil } }
    }

    /// Writes raw bytes to the host.
    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.write(controllerFD, $0.baseAddress, $0.count) }
    }

    /// Closes the controller's end: the host sees its peer close.
    func close() {
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
                received.withLock { $0.append(packet) }
                if case .command(let command) = packet {
                    let reply = script(command, self)
                    if !reply.isEmpty { write(reply) }
                }
            }
        }
        Glibc.close(controllerFD)
    }

    // MARK: Replies

    /// H4 Command Complete: status 0 then `returnParameters`.
    static func commandComplete(_ opcode: HCIOpcode, credits: UInt8 = 1, status: UInt8 = 0, _ returnParameters: [UInt8] = []) -> [UInt8] {
        let parameters = [credits, UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8), status] + returnParameters
        return [0x04, 0x0E, UInt8(parameters.count)] + parameters
    }

    static func commandStatus(_ opcode: HCIOpcode, status: UInt8 = 0, credits: UInt8 = 1) -> [UInt8] {
        [0x04, 0x0F, 0x04, status, credits, UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8)]
    }

    static func event(_ code: UInt8, _ parameters: [UInt8]) -> [UInt8] {
        [0x04, code, UInt8(parameters.count)] + parameters
    }

    /// Answers the initialization sequence like a small LE-only 5.0 controller with 27-byte × 2 LE buffers.
    static func healthy(_ command: HCICommandPacket) -> [UInt8]? {
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

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Parses "01 03 0c 00" into bytes.
func hexBytes(_ text: String) -> [UInt8] {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { UInt8($0, radix: 16) }
}
