import EventLoops
import HCITransports
import Synchronization

/// A host on a connected socket bridged to a controller's transport, on an `EventLoop` of its own: the
/// host's H4 bytes are framed (a bad indicator or an ACL packet above `maximumDataLength` ends the bridge)
/// and each whole packet is sent to the controller; the controller's packets are written to the socket
/// unchanged. It ends once, for whichever reason comes first: the host closed, bad input, a write that
/// stalled, the controller's transport closed, no packet either way for `idleTimeout` (when given), or
/// `close(why:)`; both transports are closed then. Its loop keeps time on `clock` (a served air's, so that
/// a virtual air counts the bridge among its loops; a test's stepped clock for the idle timeout).
package final class SocketBridge: Sendable {
    private let name: String
    private let loop: EventLoop
    private let socket: FileDescriptorTransport
    private let controller: any HCITransport
    /// Who hears the end, until it has.
    private let onEnd: Mutex<(@Sendable (HCITransportError) -> Void)?> = Mutex(nil)
    private let ended = Mutex(false)
    private let idleTimeout: Duration?
    /// When the last packet crossed the bridge, either way (on the loop's clock).
    private let lastPacket: Mutex<ContinuousClock.Instant>
    /// It ended because no packet crossed it for `idleTimeout`.
    package var endedIdle: Bool { idled.withLock { $0 } }
    private let idled = Mutex(false)

    /// Takes ownership of `fd` (closed when the bridge ends) and of the open `controller` transport (both
    /// are closed when the loop cannot be started). `name` labels the socket side in errors and the loop.
    package init(name: String, loopLabel: String, fd: Int32, controller: any HCITransport, maximumDataLength: Int,
         clock: LoopClock = .real, idleTimeout: Duration? = nil) throws(ServeError) {
        do {
            loop = try EventLoop(label: loopLabel, clock: clock)
        } catch {
            controller.close()
            _ = SocketOptions.closeDescriptor(fd)
            throw ServeError("\(name): cannot start its event loop: \(error)")
        }
        self.name = name
        self.idleTimeout = idleTimeout
        lastPacket = Mutex(clock.now)
        self.controller = controller
        socket = FileDescriptorTransport(moniker: name, fd: fd, maximumDataLength: maximumDataLength)
    }

    /// Starts both directions on the bridge's loop; `onEnd` hears, once, why it ended, after both
    /// transports have closed.
    package func start(onEnd: @escaping @Sendable (HCITransportError) -> Void) {
        self.onEnd.withLock { $0 = onEnd }
        loop.execute { [self] in
            do throws(HCITransportError) {
                try controller.start(on: loop, receive: forwarding(to: socket))
                try socket.start(on: loop, receive: forwarding(to: controller))
            } catch {
                end(error)
                return
            }
            if let idleTimeout {
                let started = loop.now
                lastPacket.withLock { $0 = started }
                watchIdle(until: started + idleTimeout)
            }
        }
    }

    /// At `deadline` (on the loop): ends the bridge if no packet crossed it for `idleTimeout`, else looks
    /// again `idleTimeout` after the last one.
    private func watchIdle(until deadline: ContinuousClock.Instant) {
        loop.schedule(at: deadline) { [self] in
            guard let idleTimeout, !ended.withLock({ $0 }) else { return }
            let due = lastPacket.withLock { $0 } + idleTimeout
            guard loop.now >= due else { return watchIdle(until: due) }
            idled.withLock { $0 = true }
            end(HCITransportError(.timeout, "\(name): no packet either way for \(idleTimeout)"))
        }
    }

    /// What one side receives goes to `destination`; its end, or a send that fails, ends the bridge.
    private func forwarding(to destination: any HCITransport) -> @Sendable (HCITransportEvent) -> Void {
        { [self] event in
            switch event {
            case .packet(let packet):
                if idleTimeout != nil { lastPacket.withLock { $0 = loop.now } }
                do throws(HCITransportError) { try destination.send(packet) } catch { end(error) }
            case .closed(let error):
                end(error)
            }
        }
    }

    /// Ends the bridge from this side (the server is shutting down, the controller went away).
    package func close(why: String) {
        end(HCITransportError(.closedByHost, "\(name): \(why)"))
    }

    private func end(_ error: HCITransportError) {
        let first = ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
        guard first else { return }
        loop.execute { [self] in
            socket.close()
            controller.close()
            let onEnd = self.onEnd.withLock { onEnd in
                defer { onEnd = nil }
                return onEnd
            }
            onEnd?(error)
            loop.shutdown()
        }
    }
}
