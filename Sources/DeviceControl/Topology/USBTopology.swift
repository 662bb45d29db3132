/// A snapshot of the USB tree: every device with its location, hubs with their switching facts.
package struct USBTopology: Sendable, Equatable {
    /// Sorted by location.
    package var devices: [USBDeviceInfo]
    /// Things that could not be read, each one line (permissions, stalls).
    package var problems: [String]

    package init(devices: [USBDeviceInfo], problems: [String] = []) {
        self.devices = devices.sorted { $0.location < $1.location }
        self.problems = problems
    }

    package func device(at location: USBLocation) -> USBDeviceInfo? { devices.first { $0.location == location } }

    package var hubs: [USBDeviceInfo] { devices.filter(\.isHub) }

    /// The devices `marking` picks out, in location order, each with its reason.
    package func devices(markedBy marking: USBDeviceMarking) -> [(device: USBDeviceInfo, reason: String)] {
        devices.compactMap { device in marking.reason(device).map { (device, $0) } }
    }

    /// The devices plugged directly into `port` of `hub`, and everything below them.
    package func devices(behind hub: USBLocation, port: Int) -> [USBDeviceInfo] {
        guard let child = hub.child(port: port) else { return [] }
        return devices.filter { $0.location.isWithin(child) }
    }

    /// The device directly on `port` of `hub`.
    package func device(onPort port: Int, of hub: USBLocation) -> USBDeviceInfo? {
        hub.child(port: port).flatMap(device(at:))
    }

    /// The root hubs, one per bus.
    package var buses: [USBDeviceInfo] { devices.filter(\.location.isRootHub) }
}
