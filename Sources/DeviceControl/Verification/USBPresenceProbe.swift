import Foundation

/// Where verification looks for devices. The system probe asks sysfs or libusb; tests use a fake.
public protocol USBPresenceProbe: Sendable {
    /// Every device enumerated now.
    func presentDevices() async throws -> [USBPresence]
}

/// The devices the kernel has enumerated now.
///
/// On Linux that is sysfs, read afresh on every call. libusb's device list is not used there: in a
/// long-lived process libusb keeps its list from udev events, so where no udev daemon runs (a bare
/// guest, a container) the list never changes after libusb_init. Where sysfs is absent (macOS) the
/// probe asks libusb.
package struct SystemUSBProbe: USBPresenceProbe {
    let context: USBContext?
    let sysfs: SysfsRoot

    package init(sysfs: SysfsRoot = SysfsRoot()) {
        self.context = try? USBContext.shared.get()
        self.sysfs = sysfs
    }

    package func presentDevices() async throws -> [USBPresence] {
        if FileManager.default.fileExists(atPath: sysfs.usbDevicesDirectory) { return sysfs.devices() }
        guard let context else { return [] }
        return try await context.run { context in
            try LibUSBCalls.devices(context).compactMap { device -> USBPresence? in
                guard let id = device.id, let location = device.location else { return nil }
                return USBPresence(location: location, id: id)
            }.sorted { $0.location < $1.location }
        }
    }
}
