import CLibUSB
import Foundation

/// Switches ports of a USB hub named by location, with uhubctl's hard-won behaviour:
/// - on Linux ≥ 6.0 the port's sysfs `disable` file first (the kernel then keeps the port off);
///   Set/ClearPortFeature(PORT_POWER) through libusb otherwise;
/// - the USB 2 and SuperSpeed halves of a USB 3 hub switched together (kernel `peer` link, then
///   Container ID, then port path);
/// - ganged hubs and hubs without power switching refused unless `force`, with the reason;
/// - `repeatOff` ClearPortFeature requests 20 ms apart for hubs that need more than one.
package struct HubPortActuator: PowerActuator {
    package let hub: USBLocation
    package let ports: [Int]
    package let method: HubSwitchMethod
    package let force: Bool
    package let repeatOff: Int
    let context: USBContext
    let sysfs: SysfsRoot

    package init(hub: USBLocation, ports: [Int], method: HubSwitchMethod = .auto, force: Bool = false,
                repeatOff: Int = 1, sysfs: SysfsRoot = SysfsRoot()) throws {
        guard !ports.isEmpty else { throw PowerSwitchError(.invalidInput, "usb-hub:\(hub) needs at least one port") }
        guard (1...10).contains(repeatOff) else {
            throw PowerSwitchError(.invalidInput, "repeat must be 1…10, not \(repeatOff)")
        }
        self.hub = hub
        self.ports = ports
        self.method = method
        self.force = force
        self.repeatOff = repeatOff
        self.context = try USBContext.shared.get()
        self.sysfs = sysfs
    }

    package var name: String {
        "usb-hub:\(hub) " + Self.outputs("port", ports)
    }

    /// One port to switch: on this hub, or on its other half.
    struct Target: Sendable {
        var hub: USBLocation
        var port: Int
        var superSpeed: Bool
        var isPartner: Bool
    }

    /// Reads the hub, refuses what cannot be switched safely, and lists the ports to switch.
    func plan() async throws -> (targets: [Target], notes: [String]) {
        let topology = try await TopologyReader(context: context, sysfs: sysfs).read()
        guard let device = topology.device(at: hub) else {
            let hubs = topology.hubs.map { "\($0.location) (\($0.id))" }.joined(separator: ", ")
            throw PowerSwitchError(.notFound, "no hub at \(hub); hubs here: \(hubs.isEmpty ? "none" : hubs)")
        }
        guard device.isHub, let info = device.hub else {
            throw PowerSwitchError(.invalidInput, "\(hub) is \(device.id) \(device.product ?? ""), class \(device.classTriple), not a hub")
        }
        guard let descriptor = info.descriptor else {
            throw PowerSwitchError(info.problem?.contains("permission denied") == true ? .permissionDenied : .deviceFailure,
                                   info.problem ?? "hub \(hub): no hub descriptor")
        }
        for port in ports where !(1...descriptor.portCount).contains(port) {
            throw PowerSwitchError(.invalidInput, "hub \(hub) (\(device.id)) has ports 1…\(descriptor.portCount); there is no port \(port)")
        }
        var notes: [String] = []
        try Self.checkSwitchable(hub: hub, id: device.id, descriptor: descriptor, force: force, notes: &notes)
        var targets = ports.map { Target(hub: hub, port: $0, superSpeed: descriptor.superSpeed, isPartner: false) }
        if let partnerLocation = info.partner, let partner = topology.device(at: partnerLocation), let partnerDescriptor = partner.hub?.descriptor {
            try Self.checkSwitchable(hub: partnerLocation, id: partner.id, descriptor: partnerDescriptor, force: force, notes: &notes)
            for port in ports {
                let peer = sysfs.peerPort(hub: hub, port: port)
                let partnerPort = peer?.hub == partnerLocation ? (peer?.port ?? port) : port
                guard partnerPort <= partnerDescriptor.portCount else { continue }
                targets.append(Target(hub: partnerLocation, port: partnerPort, superSpeed: partnerDescriptor.superSpeed, isPartner: true))
            }
            notes.append("hub \(hub) pairs with \(partnerLocation) (\(info.partnerEvidence ?? "paired")); switching both halves")
        }
        return (targets, notes)
    }

    /// Refuses ganged and non-switching hubs unless forced.
    static func checkSwitchable(hub: USBLocation, id: USBID, descriptor: HubDescriptor, force: Bool, notes: inout [String]) throws {
        switch descriptor.switchingMode {
        case .perPort:
            return
        case .ganged, .none:
            let what = "hub \(hub) (\(id)) has \(descriptor.switchingExplanation)"
            guard force else {
                throw PowerSwitchError(.refused, "\(what); refusing to switch it (pass --force, or \"force\": true in the rig, to try anyway — verification will still check the result)")
            }
            notes.append("\(what); switching anyway (forced)")
        }
    }

    package func apply(_ power: Power) async throws -> [String] {
        let (targets, notes) = try await plan()
        var steps = notes
        for target in targets {
            let choice: (method: HubSwitchMethod, why: String)
            switch method {
            case .auto: choice = sysfs.preferredMethod(hub: target.hub, port: target.port)
            case .sysfs:
                guard FileManager.default.fileExists(atPath: sysfs.disableFile(hub: target.hub, port: target.port)) else {
                    throw PowerSwitchError(.unsupported, "method sysfs: \(sysfs.disableFile(hub: target.hub, port: target.port)) does not exist (needs Linux ≥ 5.7 with the hub driver bound)")
                }
                choice = (.sysfs, "asked for sysfs")
            case .hubRequest: choice = (.hubRequest, "asked for hub requests")
            }
            switch choice.method {
            case .sysfs:
                try sysfs.writeDisable(hub: target.hub, port: target.port, disabled: power == .off)
                steps.append("wrote \(power == .off ? 1 : 0) to \(sysfs.disableFile(hub: target.hub, port: target.port)) (\(choice.why))")
            case .hubRequest, .auto:
                steps.append(contentsOf: try await sendPortPower(power, target: target, why: choice.why))
            }
        }
        return steps
    }

    /// Set/ClearPortFeature(PORT_POWER) on one port, repeated for `off` as configured.
    func sendPortPower(_ power: Power, target: Target, why: String) async throws -> [String] {
        let repeats = power == .off ? repeatOff : 1
        let setup = power == .off ? HubRequest.clearPortPower(port: target.port) : HubRequest.setPortPower(port: target.port)
        let requestName = power == .off ? "ClearPortFeature" : "SetPortFeature"
        let location = target.hub
        try await context.run { context in
            guard let device = try LibUSBCalls.devices(context).first(where: { $0.location == location }) else {
                throw PowerSwitchError(.notFound, "hub \(location) left the bus before \(requestName)(PORT_POWER)")
            }
            let handle = try LibUSBCalls.open(device, what: "hub \(location)")
            defer { libusb_close(handle) }
            for attempt in 1...repeats {
                _ = try LibUSBCalls.control(handle, setup, what: "\(requestName)(PORT_POWER) on port \(target.port) of hub \(location)")
                if attempt < repeats { usleep(20_000) }
            }
        }
        return ["\(requestName)(PORT_POWER) port \(target.port) of hub \(location)\(repeats > 1 ? " ×\(repeats)" : "") [\(setup)] (\(why))"]
    }

    package func status() async throws -> PowerStatus {
        let (targets, _) = try await plan()
        let sysfs = self.sysfs
        let statuses = try await context.run { context in
            let devices = try LibUSBCalls.devices(context)
            return try targets.map { target -> PowerStatus in
                guard let device = devices.first(where: { $0.location == target.hub }) else {
                    throw PowerSwitchError(.notFound, "hub \(target.hub) left the bus")
                }
                let handle = try LibUSBCalls.open(device, what: "hub \(target.hub)")
                defer { libusb_close(handle) }
                let bytes = try LibUSBCalls.control(handle, HubRequest.getPortStatus(port: target.port),
                                                    what: "GetPortStatus of port \(target.port) of hub \(target.hub)")
                let status = try PortStatus(bytes: bytes, superSpeed: target.superSpeed)
                let disabled = try? sysfs.readDisable(hub: target.hub, port: target.port)
                return Self.interpret(hub: target.hub, port: target.port, status: status, sysfsDisabled: disabled)
            }
        }
        return PowerStatus.combining(statuses)
    }

    /// The hub's port power bit is what the switch reports; the sysfs `disable` value is shown beside it
    /// and a disagreement makes the state unknown.
    static func interpret(hub: USBLocation, port: Int, status: PortStatus, sysfsDisabled: Bool?) -> PowerStatus {
        var detail = "\(hub) port \(port): \(status)"
        if let sysfsDisabled { detail += ", sysfs disable=\(sysfsDisabled ? 1 : 0)" }
        if sysfsDisabled == true, status.isPowered {
            return PowerStatus(state: .unknown(reason: "sysfs says disabled but the hub reports port power on"), detail: detail)
        }
        return PowerStatus(state: status.isPowered ? .on : .off, detail: detail)
    }

    package func downstream() async throws -> Downstream {
        let (targets, _) = try await plan()
        let present = try await SystemUSBProbe(sysfs: sysfs).presentDevices()
        var result = Downstream()
        for target in targets {
            guard let child = target.hub.child(port: target.port) else { continue }
            result.watchedLocations.append(child)
            for device in present where device.location.isWithin(child) {
                result.devices.append(DeviceExpectation(location: device.location, id: device.id))
            }
        }
        return result
    }
}
