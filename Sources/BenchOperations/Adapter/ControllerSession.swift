import HCI
import RigFormat
import Rigs

/// A host on the controller a moniker names, plus — for `sim:` monikers — the simulated bench of the rig
/// that gives the moniker meaning, kept alive as long as the session.
public struct ControllerSession: Sendable {
    public let host: HCIHost
    public let simulation: SimulatedRigRuntime?

    /// Opens `moniker`. A `sim:` moniker resolves against `rigPath` (default: rigs/simulated.json), whose
    /// simulated accessories are powered on first. A rig that is given is read and checked first, whatever
    /// the moniker (its errors are `RigError`s).
    public static func open(moniker text: String, rigPath: String?, capturePath: String? = nil,
                            commandTimeout: Duration = .seconds(2)) async throws -> ControllerSession {
        let runtime = try await simulation(for: text, rigPath: rigPath)
        do {
            let host = try await AdapterAccess(moniker: text, runtime: runtime).openHost(capture: capturePath.map(CaptureTarget.file), commandTimeout: commandTimeout)
            return ControllerSession(host: host, simulation: runtime)
        } catch {
            await runtime?.shutdown()
            throw error
        }
    }

    /// The simulated bench a `sim:` moniker needs, running with its accessories powered on: the rig at
    /// `rigPath`, else rigs/simulated.json. Nil for every other moniker; a rig that is given is read and
    /// checked whatever the moniker. A bad moniker is an `HCITransportError` of kind `.invalidMoniker`; a
    /// bad rig a `RigError`.
    public static func simulation(for text: String, rigPath: String?) async throws -> SimulatedRigRuntime? {
        let moniker = try TransportMoniker(parsing: text)
        let given = try rigPath.map { (path: String) throws(RigError) -> Rig in try Rig.load(path: path) }
        guard case .simulated = moniker else { return nil }
        let rig: Rig
        if let given {
            rig = given
        } else {
            guard let path = Rig.defaultPath() else {
                throw RigError("\(text): sim: monikers resolve against a rig file; none given (--rig) and rigs/simulated.json not found")
            }
            rig = try Rig.load(path: path)
        }
        let runtime = try SimulatedRigRuntime(rig: rig)
        do {
            try await runtime.powerOnAll()
        } catch {
            await runtime.shutdown()
            throw error
        }
        return runtime
    }

    public func close() async {
        await host.close()
        await simulation?.shutdown()
    }
}
