import CLibUSB
import Foundation
import LibUSB

/// Reads the USB tree through libusb: devices, their strings (from sysfs where it has them, so no open
/// is needed; by opening the device otherwise), and for hubs the hub descriptor, port statuses and
/// Container ID. What cannot be read becomes a line in `problems`, never a crash.
package struct TopologyReader: Sendable {
    let context: USBContext
    let sysfs: SysfsRoot

    /// A reader over the process-wide libusb context; `.unsupported` when this system has no USB.
    package init(sysfs: SysfsRoot = SysfsRoot()) throws {
        self.context = try USBContext.shared.get()
        self.sysfs = sysfs
    }

    init(context: USBContext, sysfs: SysfsRoot) {
        self.context = context
        self.sysfs = sysfs
    }

    /// The whole tree. `hubDetails: false` skips opening hubs (fast; for polling).
    package func read(hubDetails: Bool = true) async throws -> USBTopology {
        let sysfs = self.sysfs
        var topology = try await context.run { context in
            var problems: [String] = []
            let infos = try LibUSBCalls.devices(context).compactMap { device in
                Self.describe(device, sysfs: sysfs, hubDetails: hubDetails, problems: &problems)
            }
            return USBTopology(devices: infos, problems: problems)
        }
        if hubDetails { Self.pairHubs(&topology, sysfs: sysfs) }
        if topology.devices.isEmpty, !FileManager.default.fileExists(atPath: sysfs.usbDevicesDirectory) {
            topology.problems.append("this system shows no USB: \(sysfs.usbDevicesDirectory) does not exist (a container, or a kernel without USB)")
        }
        return topology
    }

    /// One device; nil when libusb cannot even give its descriptor (it left while being listed).
    static func describe(_ device: LibUSBDevice, sysfs: SysfsRoot, hubDetails: Bool, problems: inout [String]) -> USBDeviceInfo? {
        guard let descriptor = device.descriptor, let location = device.location else { return nil }
        var info = USBDeviceInfo(
            location: location, id: USBID(vendor: descriptor.idVendor, product: descriptor.idProduct), address: device.address,
            speed: USBSpeed(libusbSpeed: device.speed), bcdUSB: descriptor.bcdUSB,
            deviceClass: descriptor.bDeviceClass, deviceSubclass: descriptor.bDeviceSubClass,
            deviceProtocol: descriptor.bDeviceProtocol, interfaces: device.interfaceClasses)
        info.manufacturer = sysfs.stringAttribute("manufacturer", of: location)
        info.product = sysfs.stringAttribute("product", of: location)
        info.serial = sysfs.stringAttribute("serial", of: location)
        let needsStrings = info.manufacturer == nil && info.product == nil && info.serial == nil
            && (descriptor.iManufacturer != 0 || descriptor.iProduct != 0 || descriptor.iSerialNumber != 0)
        if (needsStrings && hubDetails) || (info.isHub && hubDetails) {
            do {
                let handle = try LibUSBCalls.open(device, what: info.isHub ? "hub \(location)" : "device \(location)")
                defer { libusb_close(handle) }
                if needsStrings {
                    info.manufacturer = LibUSBCalls.string(handle, index: descriptor.iManufacturer)
                    info.product = LibUSBCalls.string(handle, index: descriptor.iProduct)
                    info.serial = LibUSBCalls.string(handle, index: descriptor.iSerialNumber)
                }
                if info.isHub { info.hub = readHub(handle, info: info) }
            } catch let error as PowerSwitchError {
                problems.append(error.message)
                if info.isHub { info.hub = USBHubInfo(problem: error.message) }
            } catch {
                problems.append("\(location): \(error)")
            }
        }
        return info
    }

    /// Hub descriptor, every port's status, Container ID.
    static func readHub(_ handle: OpaquePointer, info: USBDeviceInfo) -> USBHubInfo {
        var hub = USBHubInfo()
        do {
            let bytes = try LibUSBCalls.control(handle, HubRequest.getHubDescriptor(superSpeed: info.isSuperSpeedHub),
                                           what: "GetHubDescriptor of hub \(info.location)")
            let descriptor = try HubDescriptor(bytes: bytes)
            hub.descriptor = descriptor
            for port in 1...descriptor.portCount {
                let status = try LibUSBCalls.control(handle, HubRequest.getPortStatus(port: port),
                                                what: "GetPortStatus of port \(port) of hub \(info.location)")
                hub.ports[port] = try PortStatus(bytes: status, superSpeed: descriptor.superSpeed)
            }
        } catch let error as PowerSwitchError {
            hub.problem = error.message
        } catch {
            hub.problem = "\(error)"
        }
        if info.bcdUSB >= 0x0201 { hub.containerID = try? readContainerID(handle, what: "hub \(info.location)") }
        return hub
    }

    /// The Container ID from the device's BOS descriptor, if it has one.
    static func readContainerID(_ handle: OpaquePointer, what: String) throws -> ContainerID? {
        let header = try LibUSBCalls.control(handle, HubRequest.getBOSDescriptor(length: 5), what: "GET_DESCRIPTOR(BOS) of \(what)")
        guard header.count == 5 else { return nil }
        let total = UInt16(header[2]) | UInt16(header[3]) << 8
        let bos = try LibUSBCalls.control(handle, HubRequest.getBOSDescriptor(length: total), what: "GET_DESCRIPTOR(BOS) of \(what)")
        return try ContainerID.fromBOS(bos)
    }

    /// Fills each hub's `partner`: the kernel's `peer` link first, then Container ID, then port path.
    static func pairHubs(_ topology: inout USBTopology, sysfs: SysfsRoot) {
        let identities = topology.hubs.map {
            HubIdentity(location: $0.location, id: $0.id, superSpeed: $0.bcdUSB >= 0x0300, containerID: $0.hub?.containerID)
        }
        for index in topology.devices.indices where topology.devices[index].isHub {
            let device = topology.devices[index]
            if let peer = sysfs.peerPort(hub: device.location, port: 1) {
                topology.devices[index].hub?.partner = peer.hub
                topology.devices[index].hub?.partnerEvidence = "kernel peer link"
                continue
            }
            guard let me = identities.first(where: { $0.location == device.location }),
                  let match = HubPairing.partner(of: me, among: identities) else { continue }
            topology.devices[index].hub?.partner = match.hub.location
            topology.devices[index].hub?.partnerEvidence = match.evidence.rawValue
        }
    }
}
