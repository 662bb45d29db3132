import DeviceControl
import Rigs

extension LabgridExport {
    /// One switch port and who it powers.
    struct PortUse {
        var switchName: String
        var port: Int
        /// The resource name wanted (`adapter-power`, `thermometer-power`, `strap-ykush-port3`).
        var name: String
        /// Who it powers, in words (`thermometer's power`), or nil for a spare port.
        var powers: String?
    }

    /// The ports that power the adapter and each accessory, in rig order, then every other port of the
    /// rig's hardware switches; each as a labgrid power resource or a note.
    static func powerPortEntries(_ rig: Rig, names: inout LabgridName.Registry) -> [Entry] {
        var uses: [PortUse] = []
        if let power = rig.adapter.power {
            uses.append(PortUse(switchName: power.switchName, port: power.port, name: "adapter-power", powers: "the adapter's power"))
        }
        for accessory in rig.accessories {
            guard let power = accessory.power else { continue }
            uses.append(PortUse(switchName: power.switchName, port: power.port, name: "\(accessory.name)-power", powers: "\(accessory.name)'s power"))
        }
        for description in rig.powerSwitches {
            for port in description.ports where !uses.contains(where: { $0.switchName == description.name && $0.port == port }) {
                uses.append(PortUse(switchName: description.name, port: port, name: "\(description.name)-port\(port)", powers: nil))
            }
        }
        return uses.map { use in
            guard let description = rig.powerSwitches.first(where: { $0.name == use.switchName }) else {
                return .notExported(.init(part: "switch \(use.switchName)", reason: "the simulated bench's switch, inside hil's own process", powers: use.powers))
            }
            return powerPortEntry(use, description, names: &names)
        }
    }

    /// A hub port → `USBPowerPort` (labgrid switches it with uhubctl), matched by the hub's interface
    /// (`sys_name` `1-1.4:1.0`, the device labgrid's hub match needs); a YKUSH port → `YKUSHPowerPort`;
    /// a dcttech relay → `HIDRelay`. Command, process and labgrid switches are notes.
    static func powerPortEntry(_ use: PortUse, _ description: PowerSwitchDescription, names: inout LabgridName.Registry) -> Entry {
        let what = "\(use.powers.map { "\($0): " } ?? "")port \(use.port) of \(description.name)"
        func notExported(_ reason: String, advice: String? = nil) -> Entry {
            .notExported(.init(part: "switch \(description.name) port \(use.port)", reason: reason, powers: use.powers, advice: advice))
        }
        func resource(_ labgridClass: String, _ parameters: [LabgridResource.Parameter], _ origin: String) -> Entry {
            .resource(LabgridResource(name: names.claim(use.name), labgridClass: labgridClass, parameters: parameters, origin: origin))
        }
        switch description.backend {
        case .usbHub(let hub, _, _, _, _):
            return resource("USBPowerPort", [.init("match", .match([.init("sys_name", hub.sysfsHubInterfaceName)])), .init("index", .integer(use.port))],
                            "\(what) (usb-hub \(hub))")
        case .ykush(let serial, _):
            guard let serial else {
                return notExported("a YKUSH board without a serial, which labgrid names its boards by", advice: "give the switch its \"serial\" (hil usb shows it)")
            }
            return resource("YKUSHPowerPort", [.init("serial", .text(serial)), .init("index", .text(String(use.port)))],
                            "\(what) (ykush \(serial))")
        case .relay(let vendor, let serial, _):
            let board = serial.map { " board \($0); with several boards on this host, add the board's sys_name (its USB location) to the match: udev cannot see a dcttech serial" } ?? ""
            return resource("HIDRelay", [.init("match", .match(usbDeviceMatch(USBRelayProtocol.id))),
                                         .init("index", .integer(use.port))],
                            "\(what) (relay \(vendor)\(board))")
        case .command:
            return notExported("a command switch, and labgrid runs no command lines",
                               advice: "declare the outlet by hand as a NetworkPowerPort (a PDU model labgrid drives) or a PDUDaemonPort")
        case .process:
            return notExported("an emulator process hil starts and stops, not a device")
        case .labgrid(let place, _, _):
            return notExported("already a labgrid resource: the power driver of place \(place), exported where it is attached")
        case .ppk2(let meter):
            return notExported("the DUT supply of PPK2 \(meter), which labgrid has no driver for")
        }
    }
}
