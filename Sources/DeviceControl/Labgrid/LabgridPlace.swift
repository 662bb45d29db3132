import Foundation

/// A bench as a labgrid place: the coordinator that holds the place and the place's name (a rig's
/// `"labgrid": {"coordinator": "127.0.0.1:20408", "place": "bench-1"}`).
public struct LabgridPlace: Sendable, Hashable, CustomStringConvertible {
    /// `HOST:PORT` of the labgrid coordinator.
    package var coordinator: String
    package var place: String

    /// labgrid's own default coordinator address (`labgrid-client` without `-x`/`LG_COORDINATOR`).
    package static let defaultCoordinator = "127.0.0.1:20408"

    /// A place on `coordinator`, else on `LG_COORDINATOR` as labgrid's own tools read it, else labgrid's default.
    package init(place: String, coordinator: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.place = place
        self.coordinator = coordinator ?? environment["LG_COORDINATOR"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultCoordinator
    }

    /// "place bench-1 on labgrid 127.0.0.1:20408".
    public var description: String { "place \(place) on labgrid \(coordinator)" }
}
