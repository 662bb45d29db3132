import Support
import BenchOperations
import EventLoops
import Foundation
import HCIPackets
import GATT
import Roles
import Throughput

/// `hil bench MONIKER (--name N | …) --mode notify|write …` (our central against a peer serving Bumble's bench
/// speed service) and `hil bench MONIKER --peripheral --advertise-name N --mode notify|write …` (our
/// peripheral serving it): sets the link up as asked, streams for the time given, prints what the
/// controller settled on and what moved.
enum BenchCommand {
    static let usage = """
        usage: hil bench MONIKER [--name NAME | --address BD_ADDR | --service UUID | --manufacturer ID] --mode notify|write
                                 [--characteristic UUID] [--phy 1M|2M|coded-s2|coded-s8] [--mtu N] [--data-length N]
                                 [--interval-ms MS] [--seconds S] [--json] [--scan-timeout S] [--rig RIG.json] [--capture FILE]
               hil bench MONIKER --peripheral [--advertise-name NAME] --mode notify|write [--seconds S] [--wait S] [--json] [...]
        Throughput in Bumble's bench format (bumble/apps/bench.py: its speed service and packets), so Bumble's
        `bench` app can be the other side. As central: connects, exchanges the MTU (--mtu, default 247), sets the
        data length (--data-length, default 251), the PHY (--phy) and the interval (--interval-ms) as asked, then
        with --mode notify counts the peer's notifications on RX (or --characteristic) for --seconds (default 5)
        or until its last packet, which it acknowledges; with --mode write sends Write Without Response packets
        to TX for --seconds and waits for the peer's ACK. As --peripheral: advertises the speed service, waits
        (--wait, default 60 s) for a central, then streams notifications to it (and waits 5 s at most for its ACK
        of the last) or counts its writes.
        Prints the link's settled MTU, PHY, data length and interval and the bytes, seconds and bit/s; --json
        prints one object (mode, bytes, packets, sequence_gaps, seconds, bits_per_second, mtu, phy, data_length,
        interval_ms, latency_ms_p50, latency_ms_p95, acknowledged). Exit 1 when the stream moved nothing.
        """

    struct Options {
        var mode: String
        var seconds: Double
        var json: Bool
        var mtu: Int
        var dataLength: Int
        var phy: PHYPreference?
        var intervalMilliseconds: Double?
        var characteristic: BluetoothUUID?
    }

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let options: Options
        let peripheral: Bool
        let filter: ScanFilter
        let advertiseName: String
        let wait: Double
        let scanTimeout: Duration
        var controller: SessionArguments
        do {
            peripheral = arguments.flag("peripheral")
            let json = arguments.flag("json")
            guard let mode = try arguments.option("mode"), ["notify", "write"].contains(mode) else {
                throw UsageError("--mode notify or --mode write is required")
            }
            var phy: PHYPreference?
            if let text = try arguments.option("phy") {
                guard let parsed = PHYPreference(rawValue: text.lowercased() == "coded" ? "coded-s8" : text) else {
                    throw UsageError("--phy '\(text)': 1M, 2M, coded-s2 or coded-s8")
                }
                phy = parsed
            }
            var characteristic: BluetoothUUID?
            if let text = try arguments.option("characteristic") {
                guard let uuid = BluetoothUUID(text) else { throw UsageError("--characteristic '\(text)' is not a UUID") }
                characteristic = uuid
            }
            options = Options(mode: mode, seconds: try arguments.number("seconds", in: 0.1...3600) ?? 5, json: json,
                              mtu: Int(try arguments.number("mtu", in: 23...517) ?? 247),
                              dataLength: Int(try arguments.number("data-length", in: 27...251) ?? 251), phy: phy,
                              intervalMilliseconds: try arguments.number("interval-ms", in: 7.5...4000), characteristic: characteristic)
            advertiseName = try arguments.option("advertise-name") ?? "hil-bench"
            wait = try arguments.number("wait", in: 0.1...86_400) ?? 60
            scanTimeout = try FilterArguments.scanTimeout(&arguments)
            controller = try SessionArguments.parse(&arguments)
            filter = peripheral ? ScanFilter() : try FilterArguments.parse(&arguments)
            try controller.finish(&arguments)
            guard peripheral || !filter.isEmpty else { throw UsageError("say which peer: --name, --address, --service or --manufacturer (or --peripheral)") }
        } catch {
            return Diagnostics.usageError("bench", error)
        }
        let database: GATTDatabase
        do {
            database = try GATTDatabase(services: [.gap(name: advertiseName), .gatt()] + (peripheral ? [SpeedService.definition(written: { _ in })] : []))
        } catch {
            return Diagnostics.fail("bench", "cannot build the GATT database: \(error)", .usageError)
        }
        return await controller.withDevice("bench", database: database) { device in
            let report = peripheral
                ? try await runPeripheral(device, options, name: advertiseName, wait: .milliseconds(Int64(wait * 1000)))
                : try await runCentral(device, options, filter: filter, scanTimeout: scanTimeout)
            present(report, json: options.json)
            return report.bytes > 0 ? .success : .productFailure
        }
    }

    static func runCentral(_ device: LEDevice, _ options: Options, filter: ScanFilter, scanTimeout: Duration) async throws -> ThroughputReport {
        let found: ScanResult
        do {
            found = try await device.find(filter, timeout: scanTimeout)
        } catch {
            throw CommandFailure(message: error.description, status: .productFailure)
        }
        let link = try await device.connect(to: found.address, type: found.addressType)
        defer { Task { _ = try? await link.disconnect() } }
        do {
            try await setUp(link, options)
            let client = try await BenchClient.find(on: link, notifying: options.mode == "notify" ? options.characteristic ?? SpeedService.rx : SpeedService.rx,
                                                    writable: options.mode == "write" ? options.characteristic ?? SpeedService.tx : SpeedService.tx)
            let report = options.mode == "notify"
                ? try await client.receive(for: .milliseconds(Int64(options.seconds * 1000)))
                : try await client.send(for: .milliseconds(Int64(options.seconds * 1000)))
            _ = try? await link.disconnect()
            return report
        } catch let error as ThroughputError {
            _ = try? await link.disconnect()
            throw CommandFailure(message: "\(found.address): \(error)", status: .productFailure)
        }
    }

    /// The link set up as asked: MTU, data length, PHY, interval; each result said unless --json.
    static func setUp(_ link: LEConnection, _ options: Options) async throws {
        let mtu = try await link.exchangeMTU(offering: options.mtu)
        // A controller without Data Length Extension (before Core 4.2) refuses the command: the link keeps 27 octets.
        do {
            let length = try await link.setDataLength(octets: UInt16(options.dataLength))
            if !options.json { print("link       ATT_MTU \(mtu); data length \(length)") }
        } catch {
            if !options.json { print("link       ATT_MTU \(mtu); data length unchanged: \(error)") }
        }
        if let phy = options.phy {
            let settled = try await link.setPHY(phy)
            if !options.json { print("phy        \(settled)") }
        }
        if let milliseconds = options.intervalMilliseconds {
            let units = UInt16((milliseconds / 1.25).rounded())
            let timeout = max(ConnectionParameters.shortestSupervisionTimeout(interval: units), ConnectionParameters().supervisionTimeout)
            try await link.updateParameters(ConnectionParameters(intervalMin: units, intervalMax: units, latency: 0, supervisionTimeout: timeout))
            if !options.json { print("interval   \(Double(await link.interval) * 1.25) ms") }
        }
    }

    static func runPeripheral(_ device: LEDevice, _ options: Options, name: String, wait: Duration) async throws -> ThroughputReport {
        let server = try await BenchServer(device: device)
        let incoming = await device.incomingConnections()
        let subscriptions = await device.attributeWrites()
        try await device.startAdvertising(Advertisement(name: name, serviceUUIDs: [SpeedService.service], interval: 160))
        if !options.json { print("advertising \"\(name)\" with the bench speed service; waiting \(formatDuration(wait)) for a central") }
        let loop = device.host.loop
        let link: LEConnection? = await firstElement(of: incoming, within: wait, on: loop)
        guard let link else { throw CommandFailure(message: "no central connected within \(formatDuration(wait))", status: .productFailure) }
        let duration = Duration.milliseconds(Int64(options.seconds * 1000))
        if options.mode == "notify" {
            let subscribed: AttributeWrite? = await firstElement(of: subscriptions, within: wait, on: loop) { write in
                write.connection == link.handle && write.handle == server.rx && write.value.first.map { $0 & 1 != 0 } == true
            }
            guard subscribed != nil else { throw CommandFailure(message: "the central did not subscribe to RX within \(formatDuration(wait))", status: .productFailure) }
            // Bumble's receiver writes the ACK of the last packet to TX, as its own sender waits for: so does ours
            // (5 s at most), and the run is timed to it, as the central's write runs are.
            let writes = await device.attributeWrites()
            let started = loop.now
            let sent = await server.stream(on: link, limit: .duration(duration))
            let last = UInt32(truncatingIfNeeded: sent - 1)
            let ack: AttributeWrite? = sent > 0 ? await firstElement(of: writes, within: .seconds(5), on: loop) { write in
                guard write.connection == link.handle, write.handle == server.tx, case .ack(last, _)? = BenchPacket(decoding: write.value) else { return false }
                return true
            } : nil
            return await server.streamReport(on: link, packets: sent, since: started, until: ack != nil ? loop.now : nil, acknowledged: ack != nil)
        }
        guard let meter = await server.receive(on: link, window: duration, startTimeout: wait) else {
            throw CommandFailure(message: "the central wrote no bench packet within \(formatDuration(wait))", status: .productFailure)
        }
        return await server.receiveReport(on: link, meter)
    }

    static func present(_ report: ThroughputReport, json: Bool) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            if let data = try? encoder.encode(report), let text = String(data: data, encoding: .utf8) { print(text) }
            return
        }
        print("settled    ATT_MTU \(report.mtu), PHY \(report.phy), data length \(report.dataLength) octets, interval \(report.intervalMilliseconds) ms")
        print("moved      \(report.bytes) bytes in \(report.packets) packets over \(String(format: "%.3f", report.seconds)) s: \(Int(report.bitsPerSecond)) bit/s"
              + (report.sequenceGaps > 0 ? ", \(report.sequenceGaps) sequence numbers missing" : ""))
        print("latency    p50 \(String(format: "%.2f", report.latencyMillisecondsP50)) ms, p95 \(String(format: "%.2f", report.latencyMillisecondsP95)) ms"
              + (report.acknowledged.map { $0 ? "; last packet acknowledged" : "; last packet NOT acknowledged" } ?? ""))
    }
}
