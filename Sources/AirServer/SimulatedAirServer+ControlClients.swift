import SocketServing
import Roles

/// Who asks the control protocol: standard input, and the clients of the control socket — at most
/// `ControlLimits.maximumClients` of them at once, each on a `LineChannel` whose limits keep any one of
/// them from costing the others their answers.
extension SimulatedAirServer {
    /// Reads requests from standard input and answers on standard output until end of input; end of
    /// input does not stop the server (a server started in the background keeps serving), and the log says so.
    package func serveStandardInput() async {
        guard !shuttingDown else { return }
        let channel: LineChannel
        do {
            channel = try LineChannel(name: "standard input", input: 0, output: 1, isSocket: false, limits: options.controlLimits, clock: clock)
        } catch {
            options.log("hil sim serve: \(error)")
            return
        }
        let id = addChannel(channel)
        // Until end of input or the server's close; cancelling the task closes the channel as the server's close does.
        let end = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<LineChannel.End, Never>) in
                channel.start(answer: { [weak self] line in await self?.answer(line, from: nil) ?? "failed: the server is gone" },
                              onEnd: { end in continuation.resume(returning: end) })
            }
        } onCancel: {
            channel.stop()
        }
        channels[id] = nil
        closings.signal()
        if let misbehaviour = end.misbehaviour { options.log("hil sim serve: standard input: \(misbehaviour)") }
        if !shuttingDown { options.log("hil sim serve: standard input ended; still serving until quit, SIGTERM or SIGINT") }
    }

    /// A client accepted on the control socket: served unless `maximumClients` are, the check and the
    /// claim in one step (nothing awaited between them).
    func controlClient(_ fd: Int32, on address: ServeAddress) {
        guard !shuttingDown else { _ = SocketOptions.closeDescriptor(fd); return }
        let number = nextControlClient
        nextControlClient += 1
        let peer = SocketOptions.describePeer(fd)
        let name = "control client \(number)\(peer.isEmpty ? "" : " " + peer) on \(address)"
        let limit = options.controlLimits.maximumClients
        guard controlClients < limit else {
            _ = SocketOptions.closeDescriptor(fd)
            options.log("hil sim serve: \(name): refused: \(limit) control clients are connected already")
            return
        }
        controlClients += 1
        let channel: LineChannel
        do {
            channel = try LineChannel(name: name, input: fd, output: fd, isSocket: true, limits: options.controlLimits, clock: clock)
        } catch {
            controlClients -= 1
            _ = SocketOptions.closeDescriptor(fd)
            options.log("hil sim serve: \(error)")
            return
        }
        let id = addChannel(channel)
        channel.start(answer: { [weak self] line in await self?.answer(line, from: name) ?? "failed: the server is gone" },
                      onEnd: { [weak self] end in self?.task { await self?.controlClientEnded(id, name, end) } })
    }

    private func controlClientEnded(_ id: Int, _ name: String, _ end: LineChannel.End) {
        controlClients -= 1
        channels[id] = nil
        closings.signal()
        if let misbehaviour = end.misbehaviour { options.log("hil sim serve: \(name): dropped: \(misbehaviour)") }
    }

    func addChannel(_ channel: LineChannel) -> Int {
        let id = nextChannel
        nextChannel += 1
        channels[id] = channel
        return id
    }
}
