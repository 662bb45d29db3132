import HCI

/// A host on the controller a moniker names, plus — for `sim:` monikers — the simulated bench of the rig
/// that gives the moniker meaning, kept alive as long as the session.
public struct BenchSession: Sendable {
    public let host: HCIHost
    public let simulation: SimulatedRigRuntime?

    /// Opens `moniker`. A `sim:` moniker resolves against `rigPath` (default: rigs/simulated.json), whose
    /// simulated accessories are powered on first.
    public static func open(moniker text: String, rigPath: String?, capturePath: String? = nil,
                            commandTimeout: Duration = .seconds(2)) async throws -> BenchSession {
        let runtime = try await simulation(for: text, rigPath: rigPath)
        do {
            let host = try await AdapterAccess(moniker: text, runtime: runtime).openHost(capturePath: capturePath, commandTimeout: commandTimeout)
            return BenchSession(host: host, simulation: runtime)
        } catch {
            await runtime?.shutdown()
            throw error
        }
    }

    /// The simulated bench a `sim:` moniker needs, running with its accessories powered on: the rig at
    /// `rigPath`, else rigs/simulated.json. Nil for every other moniker. A bad moniker is an
    /// `HCITransportError` of kind `.invalidMoniker`; a bad rig a `RigError`.
    public static func simulation(for text: String, rigPath: String?) async throws -> SimulatedRigRuntime? {
        guard case .simulated = try TransportMoniker(parsing: text) else { return nil }
        guard let path = rigPath ?? Rig.defaultPath() else {
            throw RigError("\(text): sim: monikers resolve against a rig file; none given (--rig) and rigs/simulated.json not found")
        }
        let runtime = try SimulatedRigRuntime(rig: try Rig.load(path: path))
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
