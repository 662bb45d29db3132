import HCIPackets
import HostCore

extension LEConnection {
    /// Whether our peripheral asks for new parameters with the link layer's Connection Parameters Request
    /// procedure (Core v5.4 Vol 6 Part B §5.1.7, started by HCI LE Connection Update, Vol 4 Part E §7.8.18)
    /// rather than L2CAP: both controllers must support it (LE feature bit 1); the peer's features are read
    /// first when not yet known. Anything unknown or failing answers no, and the L2CAP request goes instead.
    func usesLinkLayerParameterRequest(timeout: Duration) async -> Bool {
        guard role == .peripheral,
              let local = await host.controllerInfo?.leFeatures, local.contains(.connectionParametersRequestProcedure),
              let remote = try? await readRemoteFeatures(timeout: timeout) else { return false }
        return remote.contains(.connectionParametersRequestProcedure)
    }

    /// The link layer's procedure from our peripheral: LE Connection Update Complete's status, or nil when
    /// the controller refused the command itself (then the caller falls back to L2CAP).
    func linkLayerParameterRequest(_ parameters: ConnectionParameters, timeout: Duration) async throws(RoleError) -> HCIStatus? {
        do {
            return try await connectionUpdate(timeout: timeout) { () async throws(RoleError) in try await self.sendConnectionUpdate(parameters) }
        } catch {
            if case .host(.commandFailed(.leConnectionUpdate, _)) = error { return nil }
            throw error
        }
    }

    /// Runs `start` (what makes the controller update the link) and waits for this link's LE Connection Update
    /// Complete within `timeout`; returns its status.
    func connectionUpdate(timeout: Duration, start: () async throws(RoleError) -> Void) async throws(RoleError) -> HCIStatus {
        let handle = handle
        return try await event("LE Connection Update Complete for handle 0x\(hex4(handle))", timeout: timeout, after: start) { event -> HCIStatus? in
            if case .hci(.le(.connectionUpdateComplete(let status, handle, _, _, _))) = event { return status }
            return nil
        }
    }

    /// HCI LE Connection Update for this link (Vol 4 Part E §7.8.18).
    func sendConnectionUpdate(_ parameters: ConnectionParameters) async throws(RoleError) {
        do {
            try await host.send(LEConnectionUpdate(handle: handle, connection: parameters))
        } catch {
            throw .host(error)
        }
    }
}
