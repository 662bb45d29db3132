import Support
import BenchOperations
import Foundation
import EventLoops
import SMP
import Roles

/// `hil pair MONIKER (--name N | --address A | …) [security options] [--json]`: find, connect, pair,
/// store the bond, disconnect.
enum PairCommand {
    static let usage = """
        usage: hil pair MONIKER [--name NAME | --address BD_ADDR | --service UUID] [--method M] [--passkey N] [--confirm yes|no]
                                [--legacy] [--bonds DIR] [--timeout SECONDS] [--scan-timeout SECONDS] [--capture FILE [--capture-keys]] [--rig RIG.json]
        Finds the accessory, connects, pairs (LE Secure Connections unless --legacy), stores the bond under the
        adapter's file in the bond store, and disconnects. Exit 1 when the pairing fails (the SMP reason is named);
        exit 2 when the bond store cannot keep the bond (the file and the failure are named).
        """ + "\n" + SecurityArguments.usage

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let filter: ScanFilter
        var controller: SessionArguments
        let security: SecurityArguments
        let options: PairingOptions
        let timeout: Double
        let scanTimeout: Duration
        do {
            controller = try SessionArguments.parse(&arguments)
            filter = try FilterArguments.parse(&arguments)
            security = try SecurityArguments.parse(&arguments)
            options = try security.centralOptions()
            timeout = try arguments.number("timeout", in: 0.1...600) ?? 30
            scanTimeout = try FilterArguments.scanTimeout(&arguments)
            try controller.finish(&arguments, accessory: filter)
        } catch {
            return Diagnostics.usageError("pair", error)
        }
        let moniker = controller.moniker
        let bonds: AdapterBondFile
        do {
            bonds = try await security.bondFile(for: moniker)
        } catch {
            return Diagnostics.fail("pair", error.description, error.bondStoreFailure?.exitStatus ?? .usageError)
        }
        return await controller.withOpenDevice("pair") { device in
            await device.configureSecurity(pairing: options, bonds: bonds, identity: await bonds.identity)
            let prompts = await device.pairingEvents()
            let printer = Task {
                for await event in prompts { if case .prompt(let prompt, _) = event { print(prompt.line) } }
            }
            defer { printer.cancel() }
            let clock = ContinuousClock()
            do throws(RoleError) {
                let found = try await device.find(filter, timeout: scanTimeout)
                print("found      \(found.address) (\(found.addressType)) \(found.advertisingData.localName.map { "\"\($0)\"" } ?? "")")
                let link = try await device.connect(to: found.address, type: found.addressType)
                print("connected  handle 0x\(String(link.handle, radix: 16, uppercase: true)) as \(await device.ownAddress().0)")
                let start = clock.now
                let result: PairingResult
                do throws(SecurityError) {
                    result = try await link.pair(options, timeout: .milliseconds(Int64(timeout * 1000)))
                } catch {
                    _ = try? await link.disconnect()
                    if error.bondStoreFailure != nil {
                        // The keys were exchanged, but this side will not have them: the bench failed, not the accessory.
                        return Diagnostics.fail("pair", "\(found.address): paired, but the bond was not stored: \(error)", .infrastructureError)
                    }
                    return Diagnostics.fail("pair", "\(found.address): \(error)", .productFailure)
                }
                let took = start.duration(to: clock.now)
                // The accessory must have our keys before the link goes: one ATT round trip it answers in order.
                if !(await link.awaitPeerCaughtUp()) {
                    print("note       the accessory did not answer an ATT request within 2 s after pairing: it may not have stored the bond")
                }
                print("paired     \(result.method), \(result.secureConnections ? "LE Secure Connections" : "LE legacy pairing"), \(result.keySize)-octet key, "
                      + "\(result.method.isAuthenticated ? "authenticated" : "unauthenticated") (security level \(await link.security.level)) in \(formatDuration(took))")
                if result.bonded {
                    print("bonded     \(result.bond.peerAddress) (\(result.bond.peerAddressType)) stored in \(bonds.path)")
                } else {
                    print("not bonded (the accessory did not ask to bond): nothing stored")
                }
                let reason = try await link.disconnect()
                print("disconnected: \(reason)")
                return .success
            } catch {
                if case .notFound = error { return Diagnostics.fail("pair", error.description, .productFailure) }
                return Diagnostics.fail("pair", "\(moniker): \(error)", .infrastructureError)
            }
        }
    }
}
