import SocketServing
import DeviceControl
import Foundation
import HCIPackets
import HCITransports
import Simulation

/// H4 connections: a fresh controller on the air for each, or a claimed rig controller; the controller
/// leaves the air when the connection ends.
extension SimulatedAirServer {
    /// A connection accepted on `listener`: served unless `maximumConnections` are, the check and the
    /// claim of a slot in one step (nothing awaited between them: the actor takes other accepts at every
    /// await), the slot given back when the connection ends or is refused after all.
    func accepted(_ fd: Int32, on listener: ServeAddress, claim: String?) async {
        guard !shuttingDown else { _ = SocketOptions.closeDescriptor(fd); return }
        let number = nextConnection
        nextConnection += 1
        guard connectionSlots < options.maximumConnections else {
            let peer = SocketOptions.describePeer(fd)
            _ = SocketOptions.closeDescriptor(fd)
            options.log("hil sim serve: \(listener): refused connection \(number)\(peer.isEmpty ? "" : " " + peer): \(options.maximumConnections) hosts are connected already (the limit)")
            return
        }
        connectionSlots += 1
        guard let connection = await open(fd, number: number, on: listener, claim: claim) else {
            connectionSlots -= 1
            return
        }
        connections[number] = connection
        options.log("hil sim serve: \(connection.label): opened")
        connection.start()
    }

    /// The controller (fresh, or the claimed one) and the bridge of an accepted connection; nil (and the
    /// descriptor closed, the log told why) when it cannot be served.
    private func open(_ fd: Int32, number: Int, on listener: ServeAddress, claim: String?) async -> ServedConnection? {
        let controller: SimulatedController
        do {
            if let claim, let named = runtime.world.controller(named: claim) {
                guard !claimedControllers.contains(claim) else {
                    throw ServeError("the rig's controller '\(claim)' is in use by another host (or still power-cycling after one)")
                }
                controller = named
            } else {
                controller = try await runtime.world.air.join(freshConfiguration(number))
            }
        } catch {
            options.log("hil sim serve: \(listener) connection \(number): refused: \(error)")
            _ = SocketOptions.closeDescriptor(fd)
            return nil
        }
        let transport: SimulatedTransport
        do {
            transport = try controller.openTransport()
        } catch {
            options.log("hil sim serve: \(listener) connection \(number): refused: \(error)")
            _ = SocketOptions.closeDescriptor(fd)
            if claim == nil { await controller.powerOff() }
            return nil
        }
        // Claimed with no await since the check above.
        if let claim { claimedControllers.insert(claim) }
        do {
            return try ServedConnection(number: number, fd: fd, listener: listener, controller: controller, transport: transport,
                                        claimed: claim != nil) { [weak self] connection, error in
                self?.task { await self?.ended(connection, error) }
            }
        } catch {
            options.log("hil sim serve: \(error)")
            await controller.powerOff()
            if let claim {
                await controller.powerOn()
                claimedControllers.remove(claim)
            }
            return nil
        }
    }

    /// A fresh controller for connection `number`: `served-N`, public address 00:AA:5E:00:HH:LL.
    func freshConfiguration(_ number: Int) -> SimulatedWorldDescription.Controller {
        var name = "served-\(number)"
        while runtime.world.controller(named: name) != nil { name += "x" }
        let address = BDAddress(0x00AA_5E00_0000 | UInt64(number & 0xFFFF))
        return SimulatedWorldDescription.Controller(name: name, address: address)
    }

    /// A connection ended: its controller leaves the air as a powered-off one does (and then the log says
    /// why it ended); a claimed one comes back fresh, and the log says when it is free again.
    func ended(_ connection: ServedConnection, _ error: HCITransportError) async {
        connections[connection.number] = nil
        connectionSlots -= 1
        closings.signal()
        await connection.controller.powerOff()
        switch error.kind {
        case .closedByPeer: options.log("hil sim serve: \(connection.label): the host closed it")
        case .closedByHost: options.log("hil sim serve: \(connection.label): closed (\(error.message))")
        default: options.log("hil sim serve: \(connection.label): dropped: \(error.message)")
        }
        if connection.claimed {
            if !shuttingDown { await connection.controller.powerOn() }
            claimedControllers.remove(connection.controller.name)
            if !shuttingDown { options.log("hil sim serve: \(connection.listener): the rig's controller '\(connection.controller.name)' is free again") }
        }
    }

    /// Whether a connection holds the rig's controller `name` (or it is still power-cycling after one).
    package func isClaimed(_ name: String) -> Bool { claimedControllers.contains(name) }
}
