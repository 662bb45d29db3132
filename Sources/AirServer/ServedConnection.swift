import SocketServing
import HCITransports
import Simulation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One H4 connection to the served air: a host on a socket bridged (`SocketBridge`) to one simulated
/// controller. A bad indicator or an ACL packet above the controller's LE_ACL_Data_Packet_Length ends
/// the connection. It ends once, for whichever reason comes first: the host closed, bad input, a write
/// that stalled, the controller lost power, or the server shut down.
final class ServedConnection: Sendable {
    /// A small number naming the connection in logs and `status`.
    let number: Int
    /// Where it was accepted (`unix:/tmp/hil-air`).
    let listener: ServeAddress
    let controller: SimulatedController
    /// True when the connection claimed one of the rig's named controllers (rather than a fresh one).
    let claimed: Bool
    private let bridge: SocketBridge
    private let onEnd: @Sendable (ServedConnection, HCITransportError) -> Void

    /// Takes ownership of `fd` (closed when the connection ends) and of the open `transport` to `controller`.
    init(number: Int, fd: Int32, listener: ServeAddress, controller: SimulatedController, transport: SimulatedTransport, claimed: Bool,
         onEnd: @escaping @Sendable (ServedConnection, HCITransportError) -> Void) throws(ServeError) {
        // The bridge keeps the air's time: on a virtual air its loop is one of the air's.
        bridge = try SocketBridge(name: "\(listener) connection \(number)", loopLabel: "sim-serve-\(number)", fd: fd, controller: transport,
                                  maximumDataLength: Int(controller.configuration.leBufferLength), clock: controller.air.clock)
        self.number = number
        self.listener = listener
        self.controller = controller
        self.claimed = claimed
        self.onEnd = onEnd
    }

    /// "connection 2 on unix:/tmp/hil-air (controller served-2, 00:AA:5E:00:00:02)".
    var label: String {
        "connection \(number) on \(listener) (controller \(controller.name), \(controller.configuration.address))"
    }

    /// Starts both directions.
    func start() {
        bridge.start { [self] error in onEnd(self, error) }
    }

    /// Ends the connection (the server is shutting down); `onEnd` reports it once both ends have closed.
    func close(why: String) {
        bridge.close(why: why)
    }
}
