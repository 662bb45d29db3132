import HCI
import RigFormat

/// A host on the controller a moniker names, plus — for `sim:` monikers — the simulated bench of the rig
/// that gives the moniker meaning, kept alive as long as the session.
public struct BenchSession: Sendable {
    public let host: HCIHost
    public let simulation: SimulatedRigRuntime?

    /// Opens `moniker`. A `sim:` moniker resolves against `rigPath` (default: rigs/simulated.json), whose
    /// simulated accessories are powered on first. A rig that is given is read and checked first, whatever
    /// the moniker (its errors are `RigError`s).
    public static func open(moniker text: String, rigPath: String?, capturePath: String? = nil,
                            commandTimeout: Duration = .seconds(2)) async throws -> BenchSession {
        let moniker = try TransportMoniker(parsing: text)
        let given = try rigPath.map { (path: String) throws(RigError) -> Rig in try Rig.load(path: path) }
        guard case .simulated(let name) = moniker else {
            return BenchSession(host: try ControllerOpener.openHost(moniker: text, capturePath: capturePath, commandTimeout: commandTimeout),
                                simulation: nil)
        }
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
            let host = try ControllerOpener.makeHost(transport: try runtime.openTransport(named: name), moniker: text,
                                                     capturePath: capturePath, commandTimeout: commandTimeout)
            return BenchSession(host: host, simulation: runtime)
        } catch {
            await runtime.shutdown()
            throw error
        }
    }

    public func close() async {
        await host.close()
        await simulation?.shutdown()
    }
}
