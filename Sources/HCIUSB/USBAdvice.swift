import HCITransports
import LibUSB

/// Messages for what fails when opening a USB adapter: each names the device and what to do.
package enum USBAdvice {
    /// The udev rule that lets the `plugdev` group open this device.
    package static func udevRule(vendor: UInt16, product: UInt16) -> String {
        "SUBSYSTEM==\"usb\", ATTR{idVendor}==\"\(USBHex.hex(vendor))\", ATTR{idProduct}==\"\(USBHex.hex(product))\", MODE=\"0660\", GROUP=\"plugdev\""
    }

    /// `/dev/bus/usb/001/004`.
    package static func deviceNode(bus: Int, address: Int) -> String { LibUSBDevice.node(bus: bus, address: address) }

    /// The error for a failed `libusb_open`, by libusb error name.
    package static func openFailed(name: String, candidate: USBCandidate, node: String, moniker: String) -> HCITransportError {
        let device = "\(candidate.summary) (\(node))"
        switch name {
        case "LIBUSB_ERROR_ACCESS":
            return HCITransportError(.permissionDenied,
                "\(moniker): permission denied opening \(device): run as root, or install the udev rule "
                + "(sudo scripts/install-udev-rules) and join the plugdev group; the rule is \(udevRule(vendor: candidate.vendor, product: candidate.product))")
        case "LIBUSB_ERROR_NO_DEVICE", "LIBUSB_ERROR_NOT_FOUND":
            return HCITransportError(.notFound, "\(moniker): \(device) left the bus while being opened (\(name))")
        default:
            return HCITransportError(.io, "\(moniker): cannot open \(device): \(name)")
        }
    }

    /// The error for a failed `libusb_claim_interface`, by libusb error name.
    package static func claimFailed(name: String, candidate: USBCandidate, interface: UInt8, driver: String?, moniker: String) -> HCITransportError {
        switch name {
        case "LIBUSB_ERROR_BUSY":
            return HCITransportError(.io,
                "\(moniker): interface \(interface) of \(candidate.summary) is claimed by another program (another hil, Bumble, "
                + "or a process holding it through usbfs)\(driver.map { ", or the kernel driver \($0) could not be detached" } ?? "")")
        case "LIBUSB_ERROR_NOT_SUPPORTED":
            return HCITransportError(.unsupported,
                "\(moniker): this platform cannot detach the kernel driver from \(candidate.summary)\(driver.map { " (\($0))" } ?? ""); "
                + "unbind it by hand or use hci-socket: on Linux")
        case "LIBUSB_ERROR_ACCESS":
            return HCITransportError(.permissionDenied,
                "\(moniker): permission denied claiming interface \(interface) of \(candidate.summary)\(driver.map { " from \($0)" } ?? "") "
                + "(detaching a kernel driver needs root or the udev rule \(udevRule(vendor: candidate.vendor, product: candidate.product)))")
        case "LIBUSB_ERROR_NO_DEVICE":
            return HCITransportError(.notFound, "\(moniker): \(candidate.summary) left the bus while its interface was claimed")
        default:
            return HCITransportError(.io, "\(moniker): cannot claim interface \(interface) of \(candidate.summary): \(name)")
        }
    }

    static func openFailed(_ code: Int32, candidate: USBCandidate, device: LibUSBDevice, moniker: String) -> HCITransportError {
        openFailed(name: LibUSBError.name(code), candidate: candidate, node: device.node, moniker: moniker)
    }

    static func claimFailed(_ code: Int32, candidate: USBCandidate, interface: UInt8, driver: String?, moniker: String) -> HCITransportError {
        claimFailed(name: LibUSBError.name(code), candidate: candidate, interface: interface, driver: driver, moniker: moniker)
    }

    /// A transfer that ended with anything but success: the transport is lost, with libusb's name for why.
    package static func transferFailed(status name: String, what: String, moniker: String) -> HCITransportError {
        switch name {
        case "LIBUSB_TRANSFER_NO_DEVICE":
            return HCITransportError(.closedByPeer, "\(moniker): the adapter left the bus during \(what) (\(name)): unplugged, reset or powered off")
        case "LIBUSB_TRANSFER_TIMED_OUT":
            return HCITransportError(.timeout, "\(moniker): \(what) was not accepted by the adapter in time (\(name)): the dongle is wedged")
        default:
            return HCITransportError(.io, "\(moniker): \(what) failed: \(name)")
        }
    }
}
