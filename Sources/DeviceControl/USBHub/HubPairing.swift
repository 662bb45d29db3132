/// The facts about a hub that pairing its USB 2 and USB 3 halves needs.
package struct HubIdentity: Hashable, Sendable {
    package var location: USBLocation
    package var id: USBID
    /// bcdUSB ≥ 0x0300: the SuperSpeed half.
    package var superSpeed: Bool
    package var containerID: ContainerID?
}

/// A USB 3 hub is two hubs on two buses, one USB 2 and one SuperSpeed; cutting a port's power means
/// switching the port on both. This finds the other half, as uhubctl does: first by Container ID, then
/// by the same port path with the same vendor. The kernel's own answer (the port's sysfs `peer` link)
/// is consulted before either, by `SysfsRoot.peerPort`.
package enum HubPairing {
    package enum Evidence: String, Sendable, Equatable {
        case containerID = "same Container ID"
        case portPath = "same port path and vendor"
    }

    /// The other half of `hub` among `hubs`, and how it was found; nil when `hub` has none.
    package static func partner(of hub: HubIdentity, among hubs: [HubIdentity]) -> (hub: HubIdentity, evidence: Evidence)? {
        let candidates = hubs.filter { $0.location != hub.location && $0.superSpeed != hub.superSpeed }
        if let containerID = hub.containerID,
           let match = candidates.first(where: { $0.containerID == containerID }) {
            return (match, .containerID)
        }
        let byPath = candidates.filter {
            $0.id.vendor == hub.id.vendor && $0.location.portPath == hub.location.portPath && !$0.location.isRootHub
                && ($0.containerID == nil || hub.containerID == nil)
        }
        // Only an unambiguous match: two candidates on the same path means two controllers, and guessing
        // wrong would switch someone else's port.
        if byPath.count == 1, let match = byPath.first, !hub.location.isRootHub { return (match, .portPath) }
        return nil
    }
}
