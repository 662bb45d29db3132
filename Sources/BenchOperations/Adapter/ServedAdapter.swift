import HCITransports
import Rigs

/// An adapter held to be served to a host elsewhere (`hil serve`): its lease, its transport open with no
/// host on it (nothing sent, not reset), and for a `sim:` moniker the rig's simulated bench, on real time
/// (its hosts are other processes) with its accessories powered.
///
/// The lease is the rig's lock when a rig is in play (`--rig`, or the default rig a `sim:` moniker
/// resolves against), so `hil run` on that bench and a second `hil serve` of it fail at once naming the
/// holder; otherwise a lock named for the adapter (`adapter usb:0`).
package struct ServedAdapter: Sendable {
    package let moniker: String
    package let transport: any HCITransport
    package let simulation: SimulatedRigRuntime?
    package let lock: RigLock

    /// Reads the rig, takes the lease (waiting up to `wait` for its holder), brings up a simulated bench
    /// and opens the transport, capturing to `capturePath` (an H4 btsnoop file, its keys redacted unless
    /// `captureKeys` is `.kept`) when given. Errors: a bad moniker is an `HCITransportError` of kind
    /// `.invalidMoniker`, a bad rig a `InputError`, a held lease a `RigLockError`, an adapter that cannot be
    /// opened another `HCITransportError`. `notice` hears that the lease is busy or was taken over, and a rig
    /// time scale that was ignored.
    package static func open(moniker: String, rigPath: String?, capturePath: String?, captureKeys: CaptureKeys = .redacted, command: String,
                            wait: Duration = .zero, notice: @escaping @Sendable (String) -> Void) async throws -> ServedAdapter {
        let rig = try ControllerSession.rig(for: moniker, rigPath: rigPath)
        let simulated: Bool
        if case .simulated = try TransportMoniker(parsing: moniker) { simulated = true } else { simulated = false }
        let lock = try await RigLock.acquire(rigName: lockName(moniker: moniker, rig: rig), command: command, wait: wait, notice: notice)
        var runtime: SimulatedRigRuntime?
        do {
            if simulated, let rig {
                runtime = try await ControllerSession.poweredSimulation(of: rig.onRealTime { scale in
                    notice("rig \(rig.name): timeScale \(scale) ignored: a served controller runs on real time")
                })
            }
            let access = try AdapterAccess(moniker: moniker, runtime: runtime)
            let transport = try await access.openTransport(capture: capturePath.map { CaptureTarget.file($0, keys: captureKeys) })
            return ServedAdapter(moniker: moniker, transport: transport, simulation: runtime, lock: lock)
        } catch {
            await runtime?.shutdown()
            lock.release()
            throw error
        }
    }

    /// The lock's name: the rig's, else `adapter MONIKER`.
    static func lockName(moniker: String, rig: Rig?) -> String {
        rig?.name ?? "adapter \(moniker)"
    }

    /// Closes the transport, shuts a simulated bench down and releases the lease.
    package func close() async {
        transport.close()
        await simulation?.shutdown()
        lock.release()
    }
}
