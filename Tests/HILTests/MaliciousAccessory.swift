import Roles
import HILTesting
import Testing

extension StandardSuites {
    /// An accessory that misbehaves on purpose (truncated or oversized PDUs, wrong opcodes and handles,
    /// responses nobody asked for, an MTU of 0, handles going backwards, a notification flood, signaling
    /// garbage, SMP out of order, ACL lengths that lie) must not break the harness: connect, discover,
    /// give the accessory a moment to send what it sends unasked, and require that it broke no rule. A
    /// hostile accessory fails with the first violation named and its bytes in the record, within the
    /// case's budgets; a good one passes, on the same host stack, after the hostile ones.
    @Suite(.requiresMaliciousAccessory) struct MaliciousAccessory {
        /// How long the link stays up after discovery for what the accessory sends unasked.
        static let settle = Duration.milliseconds(500)

        @Test(arguments: BenchAccessories.names)
        func keepsTheProtocol(accessory: String) async throws {
            let bench = try await HILCase.open(accessory: accessory)
            let found = try await bench.findAccessory(timeout: bench.rig.budgets.advertisingAfterPowerOn)
            let link = try await bench.connect(to: found)
            _ = try await bench.discover(link)
            try await Task.sleep(for: Self.settle, clock: bench.clock)
            try await bench.requireNoProtocolViolations()
            let reason = try await link.disconnect()
            bench.mark(.connection, "Disconnection Complete \(reason)")
        }
    }
}
