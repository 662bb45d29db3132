import Support
import CLibUSB
import Foundation
import EventLoops
import HCITransports
import HostCore
import LibUSB

/// One USB device that is (or is forced to be) a Bluetooth controller, as `hil adapters` lists it.
package struct USBAdapterRecord: Hashable, Sendable, Codable {
    /// Its number in `usb:N` (Bluetooth-class devices only, in location order); nil for the others.
    package var index: Int?
    package var location: String
    package var vendor: UInt16
    package var product: UInt16
    package var serial: String?
    package var manufacturer: String?
    package var productName: String?
    /// The kernel driver bound to its HCI interface (`btusb`), from sysfs.
    package var driver: String?
    /// Class E0/01/01 on the device or an interface.
    package var declaresBluetooth: Bool
    /// The HCI endpoints found, or why none were.
    package var endpoints: String

    /// `2fe3:000b`.
    package var id: String { USBHex.id(vendor, product) }

    /// Monikers that name this device, most specific first.
    package var monikers: [String] {
        var names = ["usb:\(location)"]
        if let serial { names.append("usb:\(id)/\(serial)") }
        names.append("usb:\(id)")
        if let index { names.append("usb:\(index)") }
        return declaresBluetooth ? names : names.map { $0 + "!" }
    }
}

extension USBTransport {
    /// Every USB device that `USBBluetoothClassifier` calls a Bluetooth controller (class E0/01/01, or a
    /// known dongle with a vendor class). No device is opened: strings and drivers come from sysfs.
    package static func listAdapters(sysfs: String = "/sys") throws(HCITransportError) -> [USBAdapterRecord] {
        let session = try LibUSBSession.make(moniker: "usb")
        defer { session.finish() }
        let all = session.candidates(sysfs: sysfs)
        let sorted = all.sorted { $0.candidate.bus != $1.candidate.bus ? $0.candidate.bus < $1.candidate.bus
            : $0.candidate.ports.lexicographicallyPrecedes($1.candidate.ports) }
        var index = 0
        var records: [USBAdapterRecord] = []
        for entry in sorted {
            let candidate = entry.candidate
            let included = candidate.isBluetooth || USBBluetoothClassifier.knownDongle(vendor: candidate.vendor, product: candidate.product) != nil
            guard included else { continue }
            func attribute(_ name: String) -> String? {
                (try? String(contentsOfFile: "\(sysfs)/bus/usb/devices/\(candidate.location)/\(name)", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            var endpointsText = "no configuration descriptor"
            var interface: UInt8 = 0
            if let configuration = entry.configuration {
                do {
                    let endpoints = try configuration.hciEndpoints(forced: !candidate.isBluetooth)
                    endpointsText = endpoints.description
                    interface = endpoints.interface
                } catch {
                    endpointsText = error.description
                }
            }
            records.append(USBAdapterRecord(
                index: candidate.isBluetooth ? index : nil, location: candidate.location, vendor: candidate.vendor,
                product: candidate.product, serial: candidate.serial, manufacturer: attribute("manufacturer"),
                productName: attribute("product"), driver: LibUSBSession.driverName(candidate: candidate, interface: interface, sysfs: sysfs),
                declaresBluetooth: candidate.isBluetooth, endpoints: endpointsText))
            if candidate.isBluetooth { index += 1 }
        }
        return records
    }

    /// `libusb_reset_device` on the device `selector` names: a USB port reset, after which the device
    /// re-enumerates with the same address or, when its descriptors changed, as a new device. The device
    /// must not be open in this process (close its transport first). Returns what happened, for a log.
    package static func resetDevice(selector text: String, moniker: String, sysfs: String = "/sys") throws(HCITransportError) -> String {
        let selector: USBSelector
        do { selector = try USBSelector(parsing: text) } catch { throw HCITransportError(.invalidMoniker, error.description) }
        let session = try LibUSBSession.make(moniker: moniker)
        defer { session.finish() }
        let all = session.candidates(sysfs: sysfs)
        let chosen: USBCandidate
        do { chosen = try selector.select(from: all.map(\.candidate)) } catch { throw HCITransportError(.notFound, error.description) }
        guard let entry = all.first(where: { $0.candidate == chosen }) else {
            throw HCITransportError(.notFound, "\(moniker): \(chosen.summary) vanished during selection")
        }
        var handle: OpaquePointer?
        let code = libusb_open(entry.device.raw, &handle)
        guard code == 0, let handle else { throw USBAdvice.openFailed(code, candidate: chosen, device: entry.device, moniker: moniker) }
        defer { libusb_close(handle) }
        let clock = ContinuousClock()
        let start = clock.now
        let result = libusb_reset_device(handle)
        let elapsed = formatDuration(clock.now - start)
        switch result {
        case 0:
            return "USB reset of \(chosen.summary) done in \(elapsed)"
        case LIBUSB_ERROR_NOT_FOUND.rawValue:
            return "USB reset of \(chosen.summary) done in \(elapsed); it re-enumerated as a new device"
        default:
            throw HCITransportError(result == LIBUSB_ERROR_NO_DEVICE.rawValue ? .closedByPeer : .io,
                                    "\(moniker): USB reset of \(chosen.summary) failed after \(elapsed): \(LibUSBError.name(result))")
        }
    }
}
