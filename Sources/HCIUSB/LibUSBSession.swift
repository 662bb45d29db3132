import CLibUSB
import Foundation
import HCITransports
import LibUSB

/// One libusb context and, once opened, one device handle.
///
/// `@unchecked Sendable`: it holds C pointers (`libusb_context *`, `libusb_device_handle *`) that Swift
/// cannot check. libusb's calls on them are thread-safe; the pointers are set before the session is shared
/// and cleared only by `finish()` (or kept for good by `abandon()`), which the owning transport calls once,
/// after its event thread has been joined and no transfer is in flight.
final class LibUSBSession: @unchecked Sendable {
    /// The `libusb_context *` the transport's transfers and event handling use.
    let context: OpaquePointer
    /// The reference that keeps the context open until `finish()`.
    private var libusb: LibUSBContext?
    private(set) var handle: OpaquePointer?
    private var claimed: Int32?

    private init(libusb: LibUSBContext) {
        self.libusb = libusb
        self.context = libusb.raw
    }

    /// A new libusb context; `.unsupported` saying why there is no USB here.
    static func make(moniker: String) throws(HCITransportError) -> LibUSBSession {
        do { return LibUSBSession(libusb: try LibUSBContext.open()) } catch {
            throw HCITransportError(.unsupported, "\(moniker): \(error.message)")
        }
    }

    /// Every device on every bus, described without opening any (none when libusb cannot list them).
    func candidates(sysfs: String = "/sys") -> [(device: LibUSBDevice, candidate: USBCandidate, configuration: USBConfigurationDescriptor?)] {
        guard let devices = try? libusb?.devices() else { return [] }
        return devices.compactMap { device in
            guard let descriptor = device.descriptor, let ports = device.portNumbers else { return nil }
            let bus = device.busNumber
            let configuration = device.activeConfiguration() ?? device.configuration(at: 0)
            let location = ports.isEmpty ? "usb\(bus)" : "\(bus)-" + ports.map(String.init).joined(separator: ".")
            let serial = (try? String(contentsOfFile: "\(sysfs)/bus/usb/devices/\(location)/serial", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let evidence = USBBluetoothClassifier.classify(
                vendor: descriptor.idVendor, product: descriptor.idProduct, deviceClass: descriptor.bDeviceClass,
                deviceSubclass: descriptor.bDeviceSubClass, deviceProtocol: descriptor.bDeviceProtocol, interfaces: configuration?.interfaces ?? [])
            let candidate = USBCandidate(bus: bus, ports: ports, vendor: descriptor.idVendor, product: descriptor.idProduct,
                                         serial: serial, isBluetooth: evidence?.declaresClass ?? false, bcdDevice: descriptor.bcdDevice)
            return (device, candidate, configuration)
        }
    }

    /// Opens `device` and claims `interface`, detaching the kernel driver (btusb) if one is bound;
    /// libusb re-attaches it when the interface is released. Returns the driver that was detached.
    func open(_ device: LibUSBDevice, candidate: USBCandidate, endpoints: HCIEndpoints, moniker: String) throws(HCITransportError) -> String? {
        var opened: OpaquePointer?
        let code = libusb_open(device.raw, &opened)
        guard code == 0, let opened else {
            throw USBAdvice.openFailed(code, candidate: candidate, device: device, moniker: moniker)
        }
        let interface = Int32(endpoints.interface)
        let active = libusb_kernel_driver_active(opened, interface)
        let driver = active == 1 ? Self.driverName(candidate: candidate, interface: endpoints.interface) ?? "a kernel driver" : nil
        _ = libusb_set_auto_detach_kernel_driver(opened, 1)
        let claim = libusb_claim_interface(opened, interface)
        guard claim == 0 else {
            libusb_close(opened)
            throw USBAdvice.claimFailed(claim, candidate: candidate, interface: endpoints.interface, driver: driver, moniker: moniker)
        }
        if endpoints.alternate != 0 {
            let alt = libusb_set_interface_alt_setting(opened, interface, Int32(endpoints.alternate))
            if alt != 0 {
                libusb_release_interface(opened, interface)
                libusb_close(opened)
                throw HCITransportError(.io, "\(moniker): cannot select alternate setting \(endpoints.alternate) of interface \(interface): \(LibUSBError.name(alt))")
            }
        }
        handle = opened
        claimed = interface
        return driver
    }

    /// The driver sysfs shows on `interface` of the device (`btusb`), if any.
    static func driverName(candidate: USBCandidate, interface: UInt8, sysfs: String = "/sys") -> String? {
        let path = "\(sysfs)/bus/usb/devices/\(candidate.location):1.\(interface)/driver"
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return nil }
        return target.split(separator: "/").last.map(String.init)
    }

    /// Releases the interface (libusb re-attaches the kernel driver it detached), closes the handle and
    /// lets the context go (libusb exits it once no listed device holds it either). Call once, after every
    /// transfer has completed and the event thread has ended.
    func finish() {
        if let handle {
            if let claimed { libusb_release_interface(handle, claimed) }
            libusb_close(handle)
        }
        handle = nil
        claimed = nil
        libusb = nil
    }

    /// Leaves the handle and the context open for good, instead of `finish()`, when transfers are still in
    /// flight (or the event thread still runs) past the close deadline: they point into both, so neither
    /// may be freed under them.
    func abandon() {
        if let libusb { _ = Unmanaged.passRetained(libusb) }
    }
}
