import Support
import HCIPackets
import EventLoops
/// LE ACL buffer accounting (Core v5.4 Vol 4 Part E §4.1.1): the controller has
/// `Total_Num_LE_ACL_Data_Packets` buffers; each packet sent takes one, each Number Of Completed
/// Packets entry gives them back.
struct ACLFlowControl {
    struct Send {
        let id: UInt64
        let handle: UInt16
        var fragments: [ACLDataPacket]
        let timeout: Duration
        let started: ContinuousClock.Instant
        /// Nil once its caller gave up (deadline or cancellation) after the first fragment went out: the
        /// rest still follow, so the controller never holds a start fragment with no continuation.
        var continuation: CheckedContinuation<Result<Void, HCIError>, Never>?
        var timer: UInt64 = 0
        /// Whether the first fragment has gone to the controller.
        var begun = false

        func finish(_ result: Result<Void, HCIError>) { continuation?.resume(returning: result) }
    }

    /// Largest ACL payload per fragment (LE_ACL_Data_Packet_Length).
    var maximumLength = 27
    var totalBuffers = 1
    var availableBuffers = 1
    /// Packets sent per handle and not yet completed.
    var inFlight: [UInt16: Int] = [:]
    var queue: [Send] = []
    /// Waits for a handle to have nothing queued or in flight (true), or for it to go (false).
    var drainWaiters: [UInt16: [OneShot<Bool>]] = [:]

    mutating func configure(length: Int, count: Int) {
        maximumLength = max(length, 1)
        totalBuffers = max(count, 1)
        availableBuffers = totalBuffers
        inFlight.removeAll()
    }

    /// A new link; a repeated LE Connection Complete for an open handle keeps the packets in flight (forgetting
    /// them would lose their buffers for good).
    mutating func open(handle: UInt16) { inFlight[handle] = inFlight[handle] ?? 0 }

    /// Gives back the buffers of completed packets; entries for handles with no link are ignored, so a
    /// controller naming unknown handles cannot grow the table.
    mutating func completed(_ entries: [CompletedPackets]) {
        for entry in entries {
            guard let outstanding = inFlight[entry.handle] else { continue }
            let returned = min(Int(entry.count), outstanding)
            inFlight[entry.handle] = outstanding - returned
            availableBuffers = min(totalBuffers, availableBuffers + returned)
        }
    }

    /// Whether `handle` has nothing queued and nothing in flight.
    func isDrained(_ handle: UInt16) -> Bool {
        inFlight[handle, default: 0] == 0 && !queue.contains { $0.handle == handle }
    }

    /// Answers the drain waiters of handles that are now drained (true) or gone (false).
    mutating func notifyDrainWaiters() {
        for (handle, waiters) in drainWaiters where inFlight[handle] == nil || isDrained(handle) {
            drainWaiters[handle] = nil
            for waiter in waiters { waiter.resolve(inFlight[handle] != nil) }
        }
    }

    /// A disconnection frees the handle's buffers (§4.3) and fails its queued data.
    mutating func drop(handle: UInt16, failing error: HCIError) {
        availableBuffers = min(totalBuffers, availableBuffers + (inFlight[handle] ?? 0))
        inFlight[handle] = nil
        let failed = queue.filter { $0.handle == handle }
        queue.removeAll { $0.handle == handle }
        for send in failed { send.finish(.failure(error)) }
        notifyDrainWaiters()
    }

    mutating func dropAll(failing error: HCIError) {
        availableBuffers = totalBuffers
        inFlight.removeAll()
        let failed = queue
        queue.removeAll()
        for send in failed { send.finish(.failure(error)) }
        notifyDrainWaiters()
    }

    /// Splits an L2CAP PDU into ACL fragments of at most `maximumLength` bytes.
    func fragments(handle: UInt16, pdu: [UInt8]) -> [ACLDataPacket] {
        var result: [ACLDataPacket] = []
        var offset = 0
        repeat {
            let end = min(offset + maximumLength, pdu.count)
            result.append(ACLDataPacket(handle: handle, boundary: offset == 0 ? .firstNonFlushable : .continuing,
                                        data: Array(pdu[offset..<end])))
            offset = end
        } while offset < pdu.count
        return result
    }
}

extension HCIHost {
    /// Sends one L2CAP PDU on a connection, fragmented to the controller's LE ACL length and paced by its
    /// buffer credits. Returns once every fragment is handed to the controller; throws when no credit
    /// frees up within `timeout`, or at once when the task is cancelled. A PDU whose first fragment went
    /// out is never left half-sent: its caller hears the error, and the rest follow as credits return.
    public func sendACL(handle: UInt16, pdu: [UInt8], timeout: Duration = .seconds(5)) async throws(HCIError) {
        if let closedReason { throw .transportClosed(closedReason) }
        guard connections[handle] != nil else { throw .unknownConnection(handle: handle) }
        let id = nextWaitID
        nextWaitID += 1
        let fragments = aclFlow.fragments(handle: handle, pdu: pdu)
        let started = loop.now
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, HCIError>, Never>) in
                // Checked again: the link may have dropped while this call waited to run here (hci-fuzz `host`
                // found a send queued after its Disconnection Complete, its buffer never given back).
                guard connections[handle] != nil else {
                    continuation.resume(returning: .failure(.unknownConnection(handle: handle)))
                    return
                }
                var send = ACLFlowControl.Send(id: id, handle: handle, fragments: fragments, timeout: timeout, started: started,
                                               continuation: continuation)
                send.timer = loop.schedule(at: started.advanced(by: timeout)) { [weak self] in
                    guard let self else { return }
                    self.assumeIsolated { host in host.aclGaveUp(id, .aclCreditTimeout(handle: handle, timeout: timeout)) }
                }
                aclFlow.queue.append(send)
                pumpACL()
            }
        } onCancel: {
            onLoop { host in
                host.aclGaveUp(id, .cancelled(awaited: "a controller buffer for ACL data on handle 0x\(hex4(handle))",
                                              waited: started.duration(to: host.loop.now)))
            }
        }
        try result.get()
    }

    /// The controller's LE ACL buffers: payload length and count.
    public var aclBuffers: (length: Int, count: Int) { (aclFlow.maximumLength, aclFlow.totalBuffers) }

    func pumpACL() {
        while aclFlow.availableBuffers > 0, !aclFlow.queue.isEmpty {
            let fragment = aclFlow.queue[0].fragments.removeFirst()
            do {
                try transport.send(.aclData(fragment))
            } catch {
                let send = aclFlow.queue.removeFirst()
                loop.cancelTimer(send.timer)
                send.finish(.failure(.transportClosed(error)))
                continue
            }
            aclFlow.availableBuffers -= 1
            aclFlow.inFlight[fragment.handle, default: 0] += 1
            aclFlow.queue[0].begun = true
            if aclFlow.queue[0].fragments.isEmpty {
                let send = aclFlow.queue.removeFirst()
                loop.cancelTimer(send.timer)
                send.finish(.success(()))
            }
        }
    }

    /// The caller stops waiting (deadline or cancellation). A PDU not yet begun is dropped; one begun keeps
    /// its place so its remaining fragments follow.
    func aclGaveUp(_ id: UInt64, _ error: HCIError) {
        guard let index = aclFlow.queue.firstIndex(where: { $0.id == id }), aclFlow.queue[index].continuation != nil else { return }
        let send = aclFlow.queue[index]
        send.finish(.failure(error))
        if send.begun {
            aclFlow.queue[index].continuation = nil
        } else {
            loop.cancelTimer(send.timer)
            aclFlow.queue.remove(at: index)
        }
    }
}

extension HCIHost {
    /// Waits until every ACL packet sent on `handle` has been reported done by Number Of Completed Packets
    /// (Core v5.4 Vol 4 Part E §7.7.19: the controller transmitted it, or flushed it), within `timeout`.
    /// False when some are still in flight at the deadline, or the link is gone.
    public func waitUntilACLCompleted(handle: UInt16, timeout: Duration) async -> Bool {
        guard connections[handle] != nil else { return false }
        if aclFlow.isDrained(handle) { return true }
        let drained = OneShot<Bool>()
        aclFlow.drainWaiters[handle, default: []].append(drained)
        return await loop.value(of: drained, until: loop.now.advanced(by: timeout), orElse: false)
    }
}
