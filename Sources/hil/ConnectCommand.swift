import BenchOperations
import Foundation
import HCI

/// `hil connect MONIKER (--name N | --address A | --service UUID …) [--gatt] [--read] [--timeout S]
/// [--disconnect-reason HEX] [--json] [--capture FILE]`: find, connect, optionally discover the GATT
/// database, disconnect.
enum ConnectCommand {
    static let usage = """
        usage: hil connect MONIKER [--name NAME | --address BD_ADDR | --service UUID | --manufacturer ID] [--gatt]
                                   [--timeout SECONDS] [--scan-timeout SECONDS] [--capture FILE] [--rig RIG.json]
        Finds the first matching advertiser, connects, prints the link; with --gatt discovers and prints the
        service/characteristic/descriptor tree with properties and readable values; then disconnects.
        """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        if arguments.flag("help") { print(usage); return .success }
        let filter: ScanFilter
        let moniker: String
        let gatt: Bool
        let capture: String?
        let rigPath: String?
        let timeout: Double
        let scanTimeout: Double
        do {
            gatt = arguments.flag("gatt")
            capture = try arguments.option("capture")
            rigPath = try arguments.option("rig")
            filter = try FilterArguments.parse(&arguments)
            timeout = try arguments.number("timeout", in: 0.1...600) ?? 5
            scanTimeout = try arguments.number("scan-timeout", in: 0.1...3600) ?? 10
            moniker = try arguments.required("a controller moniker")
            try arguments.finish()
            guard !filter.isEmpty else { throw UsageError("say which accessory: --name, --address, --service or --manufacturer") }
        } catch {
            return Diagnostics.fail("connect", "\(error)\n\(usage)", .usageError)
        }
        let session: ControllerSession
        switch await SessionOpening.open("connect", moniker: moniker, rigPath: rigPath, capture: capture) {
        case .success(let opened): session = opened
        case .failure(let status): return status
        }
        let database = try? StandardProfile.database(name: "hil", profiles: [])
        let device = LEDevice(host: session.host, database: database, attTransactionTimeout: .seconds(30))
        let clock = ContinuousClock()
        let found: ScanResult
        do {
            found = try await device.find(filter, timeout: .milliseconds(Int64(scanTimeout * 1000)))
        } catch {
            await device.close(); await session.close()
            if case .notFound = error { return Diagnostics.fail("connect", error.description, .productFailure) }
            return Diagnostics.fail("connect", "\(moniker): \(error)", .infrastructureError)
        }
        print("found      \(found.address) (\(found.addressType)) \(found.advertisingData.localName.map { "\"\($0)\" " } ?? "")RSSI \(found.rssi == 127 ? "n/a" : "\(found.rssi) dBm")")
        let start = clock.now
        do {
            let link = try await device.connect(to: found.address, type: found.addressType, timeout: .milliseconds(Int64(timeout * 1000)))
            let connectTime = start.duration(to: clock.now)
            let interval = await link.interval
            let supervision = await link.supervisionTimeout
            print("connected  handle 0x\(String(link.handle, radix: 16, uppercase: true)) in \(formatDuration(connectTime)), interval \(Double(interval) * 1.25) ms, supervision timeout \(Int(supervision) * 10) ms")
            if gatt {
                let discoveryStart = clock.now
                _ = try? await link.gatt.exchangeMTU()
                let tree = try await link.gatt.discoverAll(readValues: true)
                print("discovered \(tree.services.count) services, \(tree.characteristics.count) characteristics in \(formatDuration(discoveryStart.duration(to: clock.now))), ATT MTU \(await link.gatt.mtu)")
                print(tree.description)
            }
            let reason = try await link.disconnect()
            print("disconnected: \(reason)")
            await device.close(); await session.close()
            return .success
        } catch {
            await device.close(); await session.close()
            return Diagnostics.fail("connect", "\(found.address): \(error)", .productFailure)
        }
    }
}
