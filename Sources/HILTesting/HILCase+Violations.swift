import HostCore
import Roles
import Testing

extension HILCase {
    /// What the accessory sent against the protocol during this case so far (truncated or oversized PDUs,
    /// responses nobody asked for, signaling garbage, SMP out of order, lying ACL lengths), first first.
    /// The case fails with the first of them when it ends, whatever the body did.
    public func protocolViolations() async -> [ProtocolViolation] {
        await central.host.protocolViolations
    }

    /// Throws `RoleError.protocolViolation` with the first violation the accessory committed so far, if any:
    /// a test that meets one can stop there, a product failure naming it and its bytes.
    public func requireNoProtocolViolations(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await located(sourceLocation) {
            if let first = await protocolViolations().first { throw RoleError.protocolViolation(first) }
        }
    }
}
