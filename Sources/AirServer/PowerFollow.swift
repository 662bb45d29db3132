import SocketServing
import DeviceControl

/// `--power-follows ACCESSORY=LOCATION`: the accessory's power follows the presence of a USB device at a
/// sysfs location (`/sys/bus/usb/devices/1-1.2`), as an accessory powered from a hub port does when the
/// port is cut and restored. Parsed here; watched by the server.
package struct PowerFollow: Sendable, Hashable {
    package let accessory: String
    package let location: USBLocation

    /// How often presence is looked at.
    static let pollInterval = Duration.milliseconds(50)

    /// Whether the device is enumerated now (its sysfs directory with idVendor): one `access(2)`, as it is
    /// looked at every `pollInterval` for each follow.
    func isPresent(in sysfs: SysfsRoot) -> Bool { sysfs.hasDevice(at: location) }
}

extension PowerFollow {
    /// Parses `ACCESSORY=BUS-PORT.PORT` (`thermometer=1-1.2`).
    package init(parsing text: String) throws(ServeError) {
        guard let (name, locationText) = nameEqualsValue(text) else {
            throw ServeError("--power-follows '\(text)': expected ACCESSORY=USB-LOCATION (e.g. thermometer=1-1.2)", usage: true)
        }
        guard let location = USBLocation(locationText), !location.isRootHub else {
            throw ServeError("--power-follows '\(text)': '\(locationText)' is not a USB device location (BUS-PORT[.PORT…], e.g. 1-1.2)", usage: true)
        }
        self.init(accessory: name, location: location)
    }
}
