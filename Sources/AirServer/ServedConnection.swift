import HCI
import Simulation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One H4 connection to the served air: a host on a socket bridged to one simulated controller, on the
/// connection's own `EventLoop`. Packets the host writes are framed here (a bad indicator or an ACL
/// packet above the controller's LE_ACL_Data_Packet_Length ends the connection) and handed to the
/// controller; the controller's packets are written back to the socket. It ends once, for whichever
/// reason comes first: the host closed, bad input, a write that stalled, the controller lost power, or
/// the server shut down.
final class ServedConnection: Sendable {
    /// A small number naming the connection in logs and `status`.
    let number: Int
    /// Where it was accepted (`unix:/tmp/hil-air`).
    let listener: ServeAddress
    let controller: SimulatedController
    /// True when the connection claimed one of the rig's named controllers (rather than a fresh one).
    let claimed: Bool
    private let loop: EventLoop
    private let socket: FileDescriptorTransport
    private let simulated: SimulatedTransport
    private let ended = Mutex(false)
    private let onEnd: @Sendable (ServedConnection, HCITransportError) -> Void

    /// Takes ownership of `fd` (closed when the connection ends) and of the open `transport` to `controller`.
    init(number: Int, fd: Int32, listener: ServeAddress, controller: SimulatedController, transport: SimulatedTransport, claimed: Bool,
         onEnd: @escaping @Sendable (ServedConnection, HCITransportError) -> Void) throws(SimServeError) {
        do {
            loop = try EventLoop(label: "sim-serve-\(number)")
        } catch {
            transport.close()
            _ = SocketOptions.closeDescriptor(fd)
            throw SimServeError("connection \(number) on \(listener): cannot start its event loop: \(error)")
        }
        self.number = number
        self.listener = listener
        self.controller = controller
        self.claimed = claimed
        self.simulated = transport
        self.onEnd = onEnd
        let limit = Int(controller.configuration.leBufferLength)
        socket = FileDescriptorTransport(moniker: "\(listener) connection \(number)", fd: fd, maximumDataLength: limit)
    }

    /// "connection 2 on unix:/tmp/hil-air (controller served-2, 00:AA:5E:00:00:02)".
    var label: String {
        "connection \(number) on \(listener) (controller \(controller.name), \(controller.configuration.address))"
    }

    /// Starts both directions; runs on the connection's loop.
    func start() {
        loop.execute { [self] in
            do throws(HCITransportError) {
                try simulated.start(on: loop) { [self] event in
                    switch event {
                    case .packet(let packet):
                        do throws(HCITransportError) { try socket.send(packet) } catch { end(error) }
                    case .closed(let error):
                        end(error)
                    }
                }
                try socket.start(on: loop) { [self] event in
                    switch event {
                    case .packet(let packet):
                        do throws(HCITransportError) { try simulated.send(packet) } catch { end(error) }
                    case .closed(let error):
                        end(error)
                    }
                }
            } catch {
                end(error)
            }
        }
    }

    /// Ends the connection (the server is shutting down); `onEnd` reports it once the loop has closed both ends.
    func close(why: String) {
        end(HCITransportError(.closedByHost, "\(listener) connection \(number): \(why)"))
    }

    private func end(_ error: HCITransportError) {
        let first = ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
        guard first else { return }
        loop.execute { [self] in
            socket.close()
            simulated.close()
            onEnd(self, error)
            loop.shutdown()
        }
    }
}

extension SocketOptions {
    /// `close(2)`, for descriptors no transport owns yet.
    static func closeDescriptor(_ fd: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(fd)
        #else
        Darwin.close(fd)
        #endif
    }
}
