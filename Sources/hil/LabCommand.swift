import BenchOperations
import Foundation
import Rigs

/// `hil lab export RIG.json [--group NAME]`: a rig's hardware as a labgrid exporter configuration on
/// standard output (see `LabgridExport`, docs/lab.md).
enum LabCommand {
    static let usage = """
    usage: hil lab export RIG.json [--group NAME]

    Writes a labgrid exporter configuration (YAML) for the rig's hardware to standard output: the USB
    dongle (USBFlashableDevice, matched by VID/PID/serial or by its USB location; a serial: adapter as a
    RawSerialPort), each hub port (USBPowerPort, switched by uhubctl), YKUSH port (YKUSHPowerPort) and
    dcttech relay (HIDRelay), named after what it powers (adapter-power, ACCESSORY-power; a spare port
    SWITCH-portN), in one group named after the rig (--group NAME to choose). Parts labgrid has no
    resource for (command and process switches, simulated parts, hci-socket: adapters) are comments.

        hil lab export rigs/lab-bench-example.json > /etc/labgrid/bench-1.yaml
        labgrid-exporter -c COORDINATOR --name bench-host-1 /etc/labgrid/bench-1.yaml
        labgrid-client -p bench-1 create && labgrid-client -p bench-1 add-match 'bench-host-1/lab-bench-1/*'

    exit status: 0 written; 3 for a wrong command line, a bad rig, or a rig with nothing labgrid can
                 export (a simulated bench)
    """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        switch arguments.positional() {
        case "export": return export(arguments)
        case nil where arguments.flag("help"): print(usage); return .success
        case let other:
            return Diagnostics.usageError("lab", UsageError(other.map { "unknown subcommand '\($0)' (export)" } ?? "missing a subcommand (export)"))
        }
    }

    static func export(_ arguments: Arguments) -> ExitStatus {
        var arguments = arguments
        if arguments.flag("help") { print(usage); return .success }
        let rigPath: String
        let group: String?
        do {
            group = try arguments.option("group")
            rigPath = try arguments.required("the rig file (RIG.json)")
            try arguments.finish()
        } catch {
            return Diagnostics.usageError("lab", error)
        }
        let yaml: String
        do {
            yaml = LabgridYAML.render(try LabgridExport(rig: try Rig.load(path: rigPath), group: group))
        } catch {
            return Diagnostics.fail("lab export", "\(error)", .usageError)
        }
        StandardStreams.output(Data(yaml.utf8))
        return .success
    }
}
