#if canImport(CLinuxCalls)
import CLinuxCalls
#endif
import Foundation

/// `hil`: the BluetoothHIL command-line tool. Parses the subcommand and hands the rest to it.
let usage = """
usage: hil <command> [arguments]        hil help COMMAND | hil COMMAND --help | hil --version

commands:
  info MONIKER [--json] [--capture FILE [--capture-keys]] [--timeout SECONDS]
                    reset a controller and print what it is
  scan MONIKER [--name N] [--service UUID] [--timeout S] [--json]
                    find advertisers (time-limited; stops at the first match of a filter)
  usb [--json] [--watch]
                    the USB tree: hubs (per-port / ganged / none), ports, devices; Bluetooth adapters marked
  power SWITCH --port N on|off|cycle|status   (or: power --rig RIG.json NAME on|off|cycle|status)
                    switch a hub port, YKUSH, relay board or rig-defined switch, verified against the USB tree
  connect MONIKER --name N [--gatt]
                    connect to an accessory; with --gatt print its GATT tree and readable values
  advertise MONIKER --name N [--service UUID] [--gatt battery,heart-rate,...] [--security encrypted|authenticated]
                    play an accessory until Ctrl-C (with --security, one that pairs and protects its data)
  accessory MONIKER --profile PROFILE.json --plan PLAN.json [--out DIR]
                    play an accessory for a phone app with a fault plan; report what the app did
  bench MONIKER --name N --mode notify|write [--phy P] [--mtu N] [--data-length N] [--interval-ms MS] [--seconds S] [--json]
                    throughput in Bumble's bench format against a peer (or as --peripheral): what the link settled on, what moved
  dfu MONIKER --name N (--image FILE [--test|--confirm] | --list | --reset) [--json]
                    firmware update over MCUmgr SMP into MCUboot's slots: upload resumed from the accessory's offset, slots, reset
  pair MONIKER --name N [--method M] [--passkey NNNNNN] [--confirm yes|no] [--legacy]
                    pair with an accessory and store the bond (connect uses it to encrypt)
  bonds list | bonds forget ADDRESS | bonds export --adapter MONIKER | bonds import FILE
                    the bond store: our identity per adapter, and each bond's keys and security
  adapters [--json]  every Bluetooth adapter: USB (location, VID:PID, serial, driver) and hciN (state)
  doctor [--json]    what stands between this machine and a working bench, with the fix for each
  recover MONIKER [--switch usb-hub:LOCATION --port N]
                    check an adapter and climb the recovery ladder (HCI Reset, USB reset, reopen, power cycle)
  preflight ios|android FILE [options]
                    lint an app's Bluetooth declarations (see 'hil preflight --help')
  run [--rig RIG.json] [--package PATH] [--filter REGEX] [--out DIR] [--repeat N] [--wait S] [--capture-keys] [--quiet]
                    the transition suites on a locked rig: junit.xml, results.json, report.html, captures
  report DIR        re-render report.html, junit.xml and results.json of a results directory
  report --history DIR [DIR...] [--out DIR]
                    history.html and history.json of many runs: pass rates, first failures, flaky tests, p95s
  rig schema | rig check RIG.json...
                    a rig file's JSON Schema (for editors); check rig files with hil's reader
  sim serve [--rig RIG.json] --listen unix:PATH|tcp:127.0.0.1:PORT [--control unix:PATH] [--power-follows A=LOC]
                    serve the rig's simulated air as H4 controllers (one per connection); power commands on stdin
  sim power --control unix:PATH ACCESSORY on|off|status
                    switch a served air's simulated accessory
  serve ADAPTER --listen tcp:127.0.0.1:PORT|unix:PATH [--rig RIG.json] [--capture FILE]
                    serve one controller as H4 to one host at a time (a runner elsewhere names it tcp-client:)
  lab export RIG.json [--group NAME]
                    the rig's dongle, hub ports, YKUSH ports and relays as a labgrid exporter config (YAML)
  firmware inspect FILE [--config FILE] [--lmp-subversion N] [--rom-version N] [--json]
                    what a Realtek controller would be sent from an rtl_bt epatch: chip, project ID, length, SHA-256
  meter ppk2:PORT [--seconds S] [--window S] [--mode ampere|source] [--voltage-mv MV] [--json]
                    read a power meter on its own: average current, charge, energy and samples

controller monikers: unix:PATH  tcp-client:HOST:PORT  serial:DEVICE[,BAUD][,rtscts]
                     usb:N  usb:VID:PID[/SERIAL]  usb:BUS-PORT.PORT (add ! for a vendor-class dongle)  hci-socket:N
switch monikers:     usb-hub:LOCATION  ykush:[SERIAL]  relay:dcttech:[SERIAL]
captures:            keys (LTK, IRK, CSRK, pairing values) are replaced by REDACTED… unless --capture-keys (run, info,
                     scan, connect, pair, advertise, accessory, serve); captures and results are mode 0600 in 0700 folders
"""

// Line-buffered standard output even into a pipe: long-running commands (advertise, pair, sim serve) are
// read line by line by people piping them through tee and by the programs that drive them.
#if canImport(CLinuxCalls)
hil_stdout_line_buffered()
#endif

/// Each command: its usage, which `hil help CMD` and `hil CMD --help` (`--help` anywhere among its words) print
/// instead of running it, and how it runs. A command without one here answers `--help` itself: `preflight`
/// (also `-h`), and `sim` and `lab`, whose unknown subcommand is an error even with `--help`.
let commands: [String: (usage: String?, run: @Sendable (Arguments) async -> ExitStatus)] = [
    "info": (InfoCommand.usage, InfoCommand.run), "scan": (ScanCommand.usage, ScanCommand.run),
    "connect": (ConnectCommand.usage, ConnectCommand.run), "advertise": (AdvertiseCommand.usage, AdvertiseCommand.run),
    "pair": (PairCommand.usage, PairCommand.run), "bonds": (BondsCommand.usage, BondsCommand.run),
    "preflight": (nil, PreflightCommand.run), "usb": (USBCommand.usage, USBCommand.run),
    "power": (PowerCommand.usage, PowerCommand.run), "run": (RunCommand.usage, RunCommand.run),
    "report": (ReportCommand.usage, ReportCommand.run), "adapters": (AdaptersCommand.usage, AdaptersCommand.run),
    "doctor": (DoctorCommand.usage, DoctorCommand.run), "recover": (RecoverCommand.usage, RecoverCommand.run),
    "sim": (nil, SimCommand.run), "rig": (RigCommand.usage, RigCommand.run), "serve": (ServeCommand.usage, ServeCommand.run),
    "lab": (nil, LabCommand.run), "accessory": (AccessoryCommand.usage, AccessoryCommand.run),
    "bench": (BenchCommand.usage, BenchCommand.run), "dfu": (DFUCommand.usage, DFUCommand.run),
    "firmware": (FirmwareCommand.usage, FirmwareCommand.run), "meter": (MeterCommand.usage, MeterCommand.run),
]

/// Prints the command's usage when its words ask for help and it has one here; runs it otherwise.
func answer(_ command: (usage: String?, run: @Sendable (Arguments) async -> ExitStatus), _ words: [String]) async -> ExitStatus {
    if let usage = command.usage, words.contains("--help") {
        print(usage)
        return .success
    }
    return await command.run(Arguments(words))
}

var words = Array(CommandLine.arguments.dropFirst())
guard let command = words.first else {
    print(usage)
    exit(ExitStatus.usageError.rawValue)
}
words.removeFirst()
if ["-h", "--help"].contains(command) || (command == "help" && words.isEmpty) {
    print(usage)
    exit(ExitStatus.success.rawValue)
}
if ["--version", "version"].contains(command) {
    print("hil \(HILVersion.current) (BluetoothHIL)")
    exit(ExitStatus.success.rawValue)
}
let status: ExitStatus
if command == "help", let topic = words.first {
    if let entry = commands[topic] {
        status = await answer(entry, ["--help"])
    } else {
        StandardStreams.error("hil help: unknown command '\(topic)'; see 'hil --help'\n")
        status = .usageError
    }
} else if let entry = commands[command] {
    status = await answer(entry, words)
} else {
    StandardStreams.error("hil: unknown command '\(command)'; see 'hil --help'\n")
    status = .usageError
}
exit(status.rawValue)
