import LibUSB

/// Messages for what fails without root: each names the node and the udev rule that fixes it.
/// `scripts/install-udev-rules` installs all of these rules for the `plugdev` group.
package enum PermissionAdvice {
    package static let group = "plugdev"
    package static let rulesFile = "/etc/udev/rules.d/70-bluetooth-hil.rules"
    static let install = "run as root, or install the rules with 'sudo scripts/install-udev-rules' and join the \(group) group"

    /// The usbfs node of a device: /dev/bus/usb/001/004.
    package static func deviceNode(bus: Int, address: Int) -> String { LibUSBDevice.node(bus: bus, address: address) }

    /// Opening a USB device with libusb was refused.
    package static func usbDevice(node: String, id: USBID, what: String) -> String {
        let vendor = USBID.hex4(id.vendor), product = USBID.hex4(id.product)
        return "permission denied opening \(node) (\(what), \(id)): \(install); the rule is "
            + "SUBSYSTEM==\"usb\", ATTR{idVendor}==\"\(vendor)\", ATTR{idProduct}==\"\(product)\", MODE=\"0660\", GROUP=\"\(group)\""
    }

    /// Writing a hub port's `disable` file was refused.
    package static func sysfsWrite(_ file: String) -> String {
        "permission denied writing \(file): \(install); the rule is "
            + "SUBSYSTEM==\"usb\", DRIVER==\"hub\", RUN+=\"/bin/sh -c 'chgrp \(group) $sys$devpath/*-port*/disable; chmod g+w $sys$devpath/*-port*/disable'\""
    }

    package static func sysfsRead(_ file: String) -> String { "permission denied reading \(file): \(install)" }
}
