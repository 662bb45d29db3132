import Support
import BenchOperations
import Foundation
import EventLoops
import HCIPackets
import Roles
import Synchronization

/// `hil scan MONIKER [--timeout S] [--name N] [--address A] [--service UUID] [--manufacturer ID]
/// [--min-rssi DBM] [--passive] [--all] [--json] [--capture FILE] [--rig RIG.json]`: a time-limited scan.
enum ScanCommand {
    static let usage = """
        usage: hil scan MONIKER [--timeout SECONDS] [--name NAME] [--address BD_ADDR] [--service UUID]
                                [--manufacturer COMPANY_ID] [--min-rssi DBM] [--passive] [--all] [--json] [--capture FILE [--capture-keys]] [--rig RIG.json]
        A scan always has a time limit (default 10 s) and, with a filter, stops at the first match unless --all.
        Each advertiser is printed as it is found (on standard error with --json), then the table (or JSON) of all
        of them; Ctrl-C ends the scan early, prints what was found and exits 130.
        """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let options: ScanOptions
        var controller: SessionArguments
        let json: Bool
        do {
            json = arguments.flag("json")
            controller = try SessionArguments.parse(&arguments)
            let filter = try FilterArguments.parse(&arguments)
            let timeout = try arguments.number("timeout", in: 0.1...3600) ?? 10
            let passive = arguments.flag("passive")
            let all = arguments.flag("all")
            try controller.finish(&arguments)
            options = ScanOptions(filter: filter, timeout: .milliseconds(Int64(timeout * 1000)), active: !passive,
                                  stopAtFirstMatch: all ? false : !filter.isEmpty)
        } catch {
            return Diagnostics.usageError("scan", error)
        }
        let moniker = controller.moniker
        return await controller.withOpenDevice("scan") { device in
            let toStandardError = json
            let progress: @Sendable (String) -> Void = { line in
                if toStandardError { StandardStreams.error((line + "\n")) } else { print(line) }
            }
            let mode = options.active ? "active" : "passive"
            progress("scanning \(moniker) for up to \(formatDuration(options.timeout)) (\(mode)\(options.filter.isEmpty ? "" : ", \(options.filter)")); Ctrl-C to stop")
            let seen = Mutex<[ScanResult]>([])
            let scanning = Task {
                try await device.scan(options) { result in
                    seen.withLock { $0.append(result) }
                    let name = result.advertisingData.localName.map { " \"\($0)\"" } ?? ""
                    progress("found      \(result.address) (\(result.addressType))\(name) RSSI \(result.rssi == 127 ? "n/a" : "\(result.rssi) dBm")")
                }
            }
            let interrupted = OnceFlag()
            let stopper = Task {
                let why = await StopSignal.wait(upTo: nil)
                _ = interrupted.take()
                progress("\(why): stopping the scan")
                scanning.cancel()
            }
            let outcome = await scanning.result
            stopper.cancel()
            if !interrupted.take() {
                let results = seen.withLock { $0 }
                let report = ScanReport(moniker: moniker, filter: options.filter, results: results)
                print(json ? JSONOutput.text(report) : report.text())
                return .interrupted
            }
            switch outcome {
            case .success(let results):
                let report = ScanReport(moniker: moniker, filter: options.filter, results: results)
                print(json ? JSONOutput.text(report) : report.text())
                if results.isEmpty && !options.filter.isEmpty {
                    return Diagnostics.fail("scan", "no advertiser matching \(options.filter) within \(formatDuration(options.timeout))", .productFailure)
                }
                return .success
            case .failure(let error):
                return Diagnostics.fail("scan", "\(moniker): \(error)", .infrastructureError)
            }
        }
    }
}

/// The scan filter options shared by `hil scan`, `hil connect`, `hil pair`, `hil dfu` and `hil bench`.
enum FilterArguments {
    /// A command that acts on one accessory needs a filter that names it.
    static func requireAccessory(_ filter: ScanFilter) throws(UsageError) {
        guard !filter.isEmpty else { throw UsageError("say which accessory: --name, --address, --service or --manufacturer") }
    }

    /// `--scan-timeout SECONDS` (0.1 to 3600, default 10): how long a command looks for the accessory it acts on.
    static func scanTimeout(_ arguments: inout Arguments) throws(UsageError) -> Duration {
        .milliseconds(Int64((try arguments.number("scan-timeout", in: 0.1...3600) ?? 10) * 1000))
    }

    static func parse(_ arguments: inout Arguments) throws(UsageError) -> ScanFilter {
        var filter = ScanFilter()
        if let text = try arguments.option("address") {
            guard let address = BDAddress(text) else { throw UsageError("--address '\(text)' is not a BD_ADDR like 00:AA:01:00:00:42") }
            filter.address = address
        }
        filter.name = try arguments.option("name")
        if let text = try arguments.option("service") {
            guard let uuid = BluetoothUUID(text) else { throw UsageError("--service '\(text)' is not a UUID like 180F or 0000180f-0000-1000-8000-00805f9b34fb") }
            filter.serviceUUID = uuid
        }
        if let text = try arguments.option("manufacturer") {
            let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
            guard let value = UInt16(digits, radix: text.lowercased().hasPrefix("0x") ? 16 : 10) else {
                throw UsageError("--manufacturer '\(text)' is not a company identifier like 0x0059")
            }
            filter.manufacturer = CompanyIdentifier(rawValue: value)
        }
        if let value = try arguments.number("min-rssi", in: -127...20) { filter.minimumRSSI = Int8(value) }
        return filter
    }
}
