import HCIPackets
// What a host still holds: read by the stateful fuzz target (hci-fuzz `host`, `host-events`) to check
// that nothing leaks once every wait has ended and every link has dropped.

/// Counts of the host's pending work and of the resources it accounts for.
package struct HostOutstanding: Sendable, Hashable, CustomStringConvertible {
    /// Commands queued for a credit, and sent but unanswered.
    package var queuedCommands: Int
    package var sentCommands: Int
    /// The opcodes of those commands, queued then sent, oldest first: what a leak report names.
    package var commandOpcodes: [HCIOpcode] = []
    /// Registered `expect`/`waitFor` waiters.
    package var eventWaiters: Int
    /// ACL sends queued (begun or not) and packets in flight per handle.
    package var queuedACLSends: Int
    package var aclInFlight: [UInt16: Int]
    /// `waitUntilACLCompleted` callers.
    package var drainWaiters: Int
    /// Free and total LE ACL buffers.
    package var availableACLBuffers: Int
    package var totalACLBuffers: Int
    /// Open connections.
    package var connections: Int

    package var description: String {
        "commands \(queuedCommands) queued / \(sentCommands) sent"
            + (commandOpcodes.isEmpty ? "" : " (\(commandOpcodes.map(\.description).joined(separator: ", ")))")
            + ", \(eventWaiters) event waiter(s), "
            + "ACL \(queuedACLSends) queued, in flight \(aclInFlight.sorted { $0.key < $1.key }), \(drainWaiters) drain waiter(s), "
            + "buffers \(availableACLBuffers)/\(totalACLBuffers), \(connections) connection(s)"
    }
}

extension HCIHost {
    /// What the host holds now.
    package var outstanding: HostOutstanding {
        HostOutstanding(queuedCommands: commandQueue.count, sentCommands: sentCommands.count,
                        commandOpcodes: (commandQueue + sentCommands).map(\.packet.opcode), eventWaiters: eventWaiters.count,
                        queuedACLSends: aclFlow.queue.count, aclInFlight: aclFlow.inFlight,
                        drainWaiters: aclFlow.drainWaiters.values.reduce(0) { $0 + $1.count },
                        availableACLBuffers: aclFlow.availableBuffers, totalACLBuffers: aclFlow.totalBuffers,
                        connections: connections.count)
    }
}
