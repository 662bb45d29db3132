import HCIPackets
import HostCore

extension LEConnection {
    /// The peer's LE features (Core v5.4 Vol 4 Part E §7.8.21, LE Read Remote Features): read once, within
    /// `timeout` on the host's clock, then kept for the link's life.
    @discardableResult
    public func readRemoteFeatures(timeout: Duration = .seconds(5)) async throws(RoleError) -> LEFeatures {
        if let remoteFeatures { return remoteFeatures }
        guard isConnected else { throw .disconnected(handle: handle, reason: disconnectionReason ?? .unknownConnectionIdentifier) }
        let handle = handle
        let (status, features) = try await event("LE Read Remote Features Complete for handle 0x\(hex4(handle))", timeout: timeout, after: { () async throws(RoleError) in
            do throws(HCIError) {
                try await self.host.send(LEReadRemoteFeatures(handle: handle))
            } catch {
                throw .host(error)
            }
        }) { event -> (HCIStatus, LEFeatures)? in
            if case .hci(.le(.readRemoteFeaturesComplete(let status, handle, let features))) = event { return (status, features) }
            return nil
        }
        guard status == .success else { throw .host(.commandFailed(opcode: .leReadRemoteFeatures, status: status)) }
        remoteFeatures = features
        return features
    }
}
