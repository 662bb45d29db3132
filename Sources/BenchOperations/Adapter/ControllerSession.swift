import HCITransports
import HostCore
import StrictJSON
import Rigs

/// A host on the controller a moniker names, plus — for `sim:` monikers — the simulated bench of the rig
/// that gives the moniker meaning, kept alive as long as the session.
package struct ControllerSession: Sendable {
    package let host: HCIHost
    package let simulation: SimulatedRigRuntime?
    /// What a `usb:` controller's firmware stage found or did; nil for other monikers.
    package var firmware: ControllerFirmwareState? = nil
    /// What a `usb:` controller's quirk stage found or did (btusb's flags, a CSR clone, a replaced address); nil for other monikers.
    package var quirks: ControllerQuirks? = nil

    /// Opens `moniker`. A `sim:` moniker resolves against `rigPath` (default: rigs/simulated.json), whose
    /// simulated accessories are powered on first. A rig that is given is read and checked first, whatever
    /// the moniker (its errors are `InputError`s). Packets go to an H4 capture at `capturePath` when given, its
    /// keys redacted unless `captureKeys` is `.kept`.
    package static func open(moniker text: String, rigPath: String?, capturePath: String? = nil, captureKeys: CaptureKeys = .redacted,
                            commandTimeout: Duration = .seconds(2)) async throws -> ControllerSession {
        let runtime = try await simulation(for: text, rigPath: rigPath)
        do {
            let capture = capturePath.map { CaptureTarget.file($0, keys: captureKeys) }
            let opened = try await AdapterAccess(moniker: text, runtime: runtime)
                .openHostReportingFirmware(capture: capture, commandTimeout: commandTimeout)
            return ControllerSession(host: opened.host, simulation: runtime, firmware: opened.firmware, quirks: opened.quirks)
        } catch {
            await runtime?.shutdown()
            throw error
        }
    }

    /// The simulated bench a `sim:` moniker needs, running with its accessories powered on: the rig at
    /// `rigPath`, else rigs/simulated.json. Nil for every other moniker; a rig that is given is read and
    /// checked whatever the moniker. A bad moniker is an `HCITransportError` of kind `.invalidMoniker`; a
    /// bad rig a `InputError`.
    package static func simulation(for text: String, rigPath: String?) async throws -> SimulatedRigRuntime? {
        let rig = try self.rig(for: text, rigPath: rigPath)
        guard case .simulated = try TransportMoniker(parsing: text), let rig else { return nil }
        return try await poweredSimulation(of: rig)
    }

    /// The rig a session on `text` belongs to: the one at `rigPath` (read and checked whatever the
    /// moniker), else for a `sim:` moniker rigs/simulated.json, else none. A bad moniker is an
    /// `HCITransportError` of kind `.invalidMoniker`; a bad or missing rig a `InputError`.
    package static func rig(for text: String, rigPath: String?) throws -> Rig? {
        let moniker = try TransportMoniker(parsing: text)
        if let rigPath { return try Rig.load(path: rigPath) }
        guard case .simulated = moniker else { return nil }
        guard let path = Rig.defaultPath() else {
            throw InputError("\(text): sim: monikers resolve against a rig file; none given (--rig) and rigs/simulated.json not found")
        }
        return try Rig.load(path: path)
    }

    /// The rig's simulated bench, running with its accessories powered on.
    static func poweredSimulation(of rig: Rig) async throws -> SimulatedRigRuntime {
        let runtime = try SimulatedRigRuntime(rig: rig)
        do {
            try await runtime.powerOnAll()
        } catch {
            await runtime.shutdown()
            throw error
        }
        return runtime
    }

    package func close() async {
        await host.close()
        await simulation?.shutdown()
    }
}
