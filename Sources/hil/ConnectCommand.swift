import Support
import BenchOperations
import Foundation
import EventLoops
import GATT
import SMP
import Roles

/// `hil connect MONIKER (--name N | --address A | --service UUID …) [--gatt] [--read] [--timeout S]
/// [--disconnect-reason HEX] [--json] [--capture FILE]`: find, connect, optionally discover the GATT
/// database, disconnect.
enum ConnectCommand {
    static let usage = """
        usage: hil connect MONIKER [--name NAME | --address BD_ADDR | --service UUID | --manufacturer ID] [--gatt]
                                   [--timeout SECONDS] [--scan-timeout SECONDS] [--capture FILE [--capture-keys]] [--rig RIG.json] [--bonds DIR]
        Finds the first matching advertiser, connects, prints the link; with --gatt discovers and prints the
        service/characteristic/descriptor tree with properties and readable values; then disconnects.
        When `hil pair` stored a bond with the accessory on this adapter, the link is encrypted with its key first
        (LE Enable Encryption, no new pairing); an accessory that has lost the bond is named (0x06 PIN or Key Missing).
        """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let filter: ScanFilter
        var controller: SessionArguments
        let gatt: Bool
        let timeout: Double
        let scanTimeout: Duration
        let bondDirectory: BondDirectory
        do {
            bondDirectory = BondDirectory.resolved(try arguments.option("bonds"))
            gatt = arguments.flag("gatt")
            controller = try SessionArguments.parse(&arguments)
            filter = try FilterArguments.parse(&arguments)
            timeout = try arguments.number("timeout", in: 0.1...600) ?? 5
            scanTimeout = try FilterArguments.scanTimeout(&arguments)
            try controller.finish(&arguments, accessory: filter)
        } catch {
            return Diagnostics.usageError("connect", error)
        }
        let moniker = controller.moniker
        let database = try? StandardProfile.database(name: "hil", profiles: [])
        return await controller.withOpenDevice("connect", database: database) { device in
            let bondFile = (bondDirectory.path as NSString).appendingPathComponent(AdapterBondFile.fileName(for: moniker))
            if FileManager.default.fileExists(atPath: bondFile) {
                do throws(SecurityError) {
                    let bonds = try AdapterBondFile(opening: bondFile)
                    await device.configureSecurity(pairing: nil, bonds: bonds, identity: await bonds.identity)
                } catch {
                    return Diagnostics.fail("connect", error.description, .usageError)
                }
            }
            let clock = ContinuousClock()
            let found: ScanResult
            do throws(RoleError) {
                found = try await device.find(filter, timeout: scanTimeout)
            } catch {
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
                let bond = await device.bond(for: found.address, type: found.addressType)
                if let bond {
                    let encryptStart = clock.now
                    do {
                        try await link.encrypt(with: bond)
                    } catch {
                        _ = try? await link.disconnect()
                        return Diagnostics.fail("connect", "\(found.address): encrypting with the stored bond: \(error)", .productFailure)
                    }
                    print("encrypted  with the stored bond (\(bond.method), no pairing): \(await link.security) in \(formatDuration(encryptStart.duration(to: clock.now)))")
                }
                if gatt {
                    let discoveryStart = clock.now
                    _ = try? await link.gatt.exchangeMTU()
                    let tree = try await link.gatt.discoverAll(readValues: true)
                    print("discovered \(tree.services.count) services, \(tree.characteristics.count) characteristics in \(formatDuration(discoveryStart.duration(to: clock.now))), ATT MTU \(await link.gatt.mtu)")
                    print(tree.description)
                    let refused = tree.characteristics.compactMap { characteristic -> ATTErrorCode? in
                        if case .error(let code) = characteristic.value, code.securityAdvice != nil { return code }
                        return nil
                    }
                    if let code = refused.first, bond == nil {
                        print("protected  \(refused.count) value(s) refused (\(code)): \(code.securityAdvice ?? ""); pair first: hil pair \(moniker) …")
                    }
                }
                let reason = try await link.disconnect()
                print("disconnected: \(reason)")
                return .success
            } catch {
                return Diagnostics.fail("connect", "\(found.address): \(error)", .productFailure)
            }
        }
    }
}
