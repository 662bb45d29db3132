import DeviceControl
import HCITransports
import HCIUSB
import Rigs

extension LabgridExport {
    /// The rig's adapter: a USB dongle named by ID or location becomes labgrid's generic USB resource
    /// (`USBFlashableDevice`, an opaque USB device matched by udev; its exporter publishes bus, device
    /// number, path and IDs, what a remote host needs to reach the dongle); a UART becomes a
    /// `RawSerialPort`. Anything else is a note.
    static func adapterEntry(_ adapter: Rig.Adapter, names: inout LabgridName.Registry) -> Entry {
        let what = "adapter \(adapter.moniker)"
        let moniker: TransportMoniker
        do { moniker = try TransportMoniker(parsing: adapter.moniker) } catch { return .notExported(.init(part: what, reason: error.message)) }
        switch moniker {
        case .usb(let selectorText):
            let selector: USBSelector
            do { selector = try USBSelector(parsing: selectorText) } catch { return .notExported(.init(part: what, reason: "\(error)")) }
            guard let match = usbDeviceMatch(selector.match) else {
                return .notExported(.init(part: what, reason: "a dongle named by its order among this host's dongles, which no udev match can hold",
                                           advice: "name it usb:VID:PID/SERIAL or usb:BUS-PORT.PORT in the rig"))
            }
            return .resource(LabgridResource(name: names.claim("adapter"), labgridClass: "USBFlashableDevice",
                                             parameters: [.init("match", .match(match))], origin: what))
        case .serial(let device, let baud, _):
            return .resource(LabgridResource(name: names.claim("adapter"), labgridClass: "RawSerialPort",
                                             parameters: [.init("port", .text(device)), .init("speed", .integer(baud))], origin: what))
        case .hciSocket:
            return .notExported(.init(part: what, reason: "a kernel adapter (hciN), which labgrid has no resource for",
                                       advice: "name the USB dongle behind it usb:VID:PID/SERIAL in the rig to export it"))
        case .unix, .tcpClient:
            return .notExported(.init(part: what, reason: "a socket to a controller another program serves, not a device"))
        case .simulated:
            return .notExported(.init(part: what, reason: "a simulated controller, inside hil's own process"))
        }
    }

    /// The udev properties that pick the USB device itself (`DEVTYPE` usb_device, not one of its
    /// interfaces) a selector names; nil for a selector by order (`usb:0`, `usb:VID:PID#1`).
    static func usbDeviceMatch(_ match: USBSelector.Match) -> [LabgridResource.UdevProperty]? {
        switch match {
        case .index:
            return nil
        case .id(let vendor, let product, let serial, let occurrence):
            guard occurrence == 0 else { return nil }
            var properties = usbDeviceMatch(USBID(vendor: vendor, product: product))
            if let serial { properties.append(.init("ID_SERIAL_SHORT", UdevSerial.short(serial))) }
            return properties
        case .location(let bus, let ports):
            guard let location = USBLocation(bus: bus, ports: ports) else { return nil }
            return [usbDevice, .init("sys_name", location.sysfsDeviceName)]
        }
    }

    /// Any USB device with this vendor and product ID, as udev writes them (four lowercase hex digits).
    static func usbDeviceMatch(_ id: USBID) -> [LabgridResource.UdevProperty] {
        let hex = id.description.split(separator: ":").map(String.init)
        return [usbDevice, .init("ID_VENDOR_ID", hex[0]), .init("ID_MODEL_ID", hex[1])]
    }

    /// The device itself, not one of its interfaces (which udev gives the same IDs).
    static let usbDevice = LabgridResource.UdevProperty("DEVTYPE", "usb_device")
}

/// How udev's `usb_id` builtin turns a USB serial string into `ID_SERIAL_SHORT`: surrounding whitespace
/// dropped, each run of inner whitespace one `_`, and every other character outside letters, digits and
/// `#+-.:=@_` (ASCII) replaced by `_`.
enum UdevSerial {
    static func short(_ serial: String) -> String {
        var result = ""
        var pendingSpace = false
        for scalar in serial.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result += "_" }
            pendingSpace = false
            result.unicodeScalars.append(isKept(scalar) ? scalar : "_")
        }
        return result
    }

    private static func isKept(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "#", "+", "-", ".", ":", "=", "@", "_": true
        default: !scalar.isASCII
        }
    }
}
