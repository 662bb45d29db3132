@testable import HCIPackets
@testable import EventLoops
@testable import HCITransports
import Synchronization

/// A controller in the test's own process for `AdapterServer`: it answers every HCI command with a
/// successful Command Complete (Read Local Version Information with its return parameters, Core v5.4
/// Vol 4 Part E §7.4.1), on the loop it was started on, and takes no time of its own.
final class AnsweringAdapter: HCITransport {
    let moniker = "test:adapter"
    private let state = Mutex<(loop: EventLoop?, receive: (@Sendable (HCITransportEvent) -> Void)?)>((nil, nil))

    func start(on loop: EventLoop, receive: @escaping @Sendable (HCITransportEvent) -> Void) throws(HCITransportError) {
        state.withLock { $0 = (loop, receive) }
    }

    func send(_ packet: HCIPacket) throws(HCITransportError) {
        guard case .command(let command) = packet else { return }
        guard let (loop, receive) = state.withLock({ state in state.loop.map { ($0, state.receive) } }), let receive else {
            throw HCITransportError(.closedByHost, "\(moniker): closed")
        }
        var parameters: [UInt8] = [1, UInt8(command.opcode.rawValue & 0xFF), UInt8(command.opcode.rawValue >> 8), 0x00]
        if command.opcode == .readLocalVersionInformation {
            parameters += [0x0D, 0x00, 0x00, 0x0D, 0xFF, 0xFF, 0x00, 0x00] // 5.4, revision 0, manufacturer 0xFFFF
        }
        let event = HCIEventPacket(code: 0x0E, parameters: parameters)
        loop.execute { receive(.packet(.event(event))) }
    }

    func close() {
        let (loop, receive) = state.withLock { state in
            defer { state = (nil, nil) }
            return (state.loop, state.receive)
        }
        guard let loop, let receive else { return }
        loop.execute { receive(.closed(HCITransportError(.closedByHost, "test:adapter: closed"))) }
    }
}
