import BenchOperations
import Foundation
import HCIPackets
import GATT
import SMP
import Roles
import Synchronization

/// `hil advertise MONIKER --name N [--service UUID]… [--gatt battery,heart-rate,…] [--interval MS]`:
/// plays an accessory until Ctrl-C (SIGINT) or SIGTERM.
enum AdvertiseCommand {
    static let usage = """
        usage: hil advertise MONIKER --name NAME [--service UUID]... [--gatt PROFILE[,PROFILE...]] [--interval MS]
                                     [--duration SECONDS] [--capture FILE [--capture-keys]] [--rig RIG.json]
                                     [--security encrypted|authenticated [--passkey NNNNNN] [--legacy] [--bonds DIR]]
        Plays an accessory: advertises, accepts connections, serves a GATT database built from ready profiles
        (battery, heart-rate, health-thermometer, device-information) until Ctrl-C or --duration.
        With --security it also serves HIL Protected Data (5a5e0002-6b1c-4d9e-9a5f-000000000001), readable only on a
        link encrypted (or encrypted with an authenticated key) after pairing: Just Works for `encrypted`; for
        `authenticated`, Passkey Entry with the --passkey it displays, else Numeric Comparison. Bonds are kept in
        the bond store, so a bonded central re-encrypts without pairing again; a bond the store cannot keep is
        said at once and makes the command exit 2 when it stops.
        """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let name: String
        var services: [BluetoothUUID] = []
        var profiles: [StandardProfile] = []
        let interval: Double
        let duration: Double?
        var controller: SessionArguments
        var protection: ProtectionLevel?
        var security: SecurityArguments?
        do {
            if let level = try arguments.option("security") {
                switch level {
                case "encrypted", "encryption": protection = .encryption
                case "authenticated", "authentication": protection = .authentication
                default: throw UsageError("--security '\(level)': encrypted or authenticated")
                }
                security = try SecurityArguments.parse(&arguments)
            }
            guard let given = try arguments.option("name") else { throw UsageError("--name is required") }
            name = given
            for text in try arguments.options("service") {
                guard let uuid = BluetoothUUID(text) else { throw UsageError("--service '\(text)' is not a UUID like 180F") }
                services.append(uuid)
            }
            if let list = try arguments.option("gatt") {
                for item in list.split(separator: ",") {
                    guard let profile = StandardProfile(name: String(item)) else {
                        throw UsageError("--gatt: unknown profile '\(item)' (known: \(StandardProfile.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    profiles.append(profile)
                }
            }
            interval = try arguments.number("interval", in: 20...10_240) ?? 100
            duration = try arguments.number("duration", in: 0.1...86_400)
            controller = try SessionArguments.parse(&arguments)
            try controller.finish(&arguments)
        } catch {
            return Diagnostics.usageError("advertise", error)
        }
        let database: GATTDatabase
        do {
            let protected = protection.map { [GATTService.protectedData(value: Array("secret-42".utf8), level: $0)] } ?? []
            database = try GATTDatabase(services: [.gap(name: name), .gatt()] + profiles.map(\.service) + protected)
        } catch {
            return Diagnostics.fail("advertise", "cannot build the GATT database: \(error)", .usageError)
        }
        return await controller.withOpenDevice("advertise", database: database) { device in
            var pairingPrinter: Task<Void, Never>?
            let bondsNotStored = Tally()
            if let protection, let security {
                let options: PairingOptions
                switch (protection, security.passkey) {
                case (.authentication, .some(let passkey)):
                    options = PairingOptions(ioCapability: .displayOnly, mitm: true, secureConnections: !security.legacy, passkey: passkey)
                case (.authentication, .none):
                    options = PairingOptions(ioCapability: .displayYesNo, mitm: true, secureConnections: !security.legacy, confirmsNumericComparison: security.confirm)
                default:
                    options = PairingOptions(ioCapability: .noInputNoOutput, secureConnections: !security.legacy)
                }
                do throws(SecurityError) {
                    let bonds = try await security.bondFile(for: controller.moniker)
                    await device.configureSecurity(pairing: options, bonds: bonds, identity: await bonds.identity)
                } catch {
                    return Diagnostics.fail("advertise", error.description, error.bondStoreFailure?.exitStatus ?? .usageError)
                }
                let events = await device.pairingEvents()
                pairingPrinter = Task {
                    for await event in events {
                        switch event {
                        case .prompt(let prompt, _): print(prompt.line)
                        case .paired(let result, let peer):
                            print("paired       \(peer): \(result.method), \(result.secureConnections ? "Secure Connections" : "legacy"), \(result.keySize)-octet key\(result.bonded ? ", bond stored" : "")")
                        case .failed(let error, let peer) where error.bondStoreFailure != nil:
                            // Said at once on standard error, and the command ends with exit 2 when it stops.
                            bondsNotStored.add()
                            _ = Diagnostics.fail("advertise", "\(peer): paired, but the bond was not stored: \(error)", .infrastructureError)
                        case .failed(let error, let peer): print("pairing failed \(peer): \(error)")
                        }
                    }
                }
            }
            let advertised = services.isEmpty ? profiles.map(\.uuid) : services
            do {
                try await device.start()
                try await device.startAdvertising(Advertisement(name: name, serviceUUIDs: advertised, interval: UInt16(interval / 0.625)))
                print("advertising \"\(name)\" from \(await device.ownAddress().0) every \(Int(interval)) ms; services \(advertised.map(\.description).joined(separator: ", ")); Ctrl-C to stop")
            } catch {
                return Diagnostics.fail("advertise", "\(controller.moniker): \(error)", .infrastructureError)
            }
            let incoming = await device.incomingConnections()
            let watcher = Task {
                for await link in incoming {
                    print("connected    \(link.peerAddress) handle 0x\(String(link.handle, radix: 16, uppercase: true))")
                    Task {
                        if let reason = try? await link.waitForDisconnection(timeout: .seconds(86_400)) {
                            print("disconnected \(link.peerAddress): \(reason)")
                        }
                    }
                }
            }
            let stop = await StopSignal.wait(upTo: duration)
            watcher.cancel()
            pairingPrinter?.cancel()
            try? await device.stopAdvertising()
            print("stopped (\(stop))")
            let unkept = bondsNotStored.count
            if unkept > 0 {
                return Diagnostics.fail("advertise", "\(unkept) bond(s) were not stored (see above)", .infrastructureError)
            }
            return .success
        }
    }
}

/// Waits for SIGINT/SIGTERM, or a duration.
enum StopSignal {
    static func wait(upTo duration: Double?) async -> String {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
        let result: String = await withCheckedContinuation { continuation in
            let once = OnceFlag()
            for (source, name) in zip(sources, ["SIGINT", "SIGTERM"]) {
                source.setEventHandler { if once.take() { continuation.resume(returning: name) } }
                source.resume()
            }
            if let duration {
                DispatchQueue.global().asyncAfter(deadline: .now() + duration) {
                    if once.take() { continuation.resume(returning: "after \(duration) s") }
                }
            }
        }
        for source in sources { source.cancel() }
        return result
    }
}

/// A count several tasks add to.
final class Tally: Sendable {
    private let value = Mutex(0)
    func add() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// True for the first caller only.
final class OnceFlag: Sendable {
    private let taken = Mutex(false)
    func take() -> Bool {
        taken.withLock { value in
            defer { value = true }
            return !value
        }
    }
}
