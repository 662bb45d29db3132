import DeviceControl
import Foundation
import EventLoops
import HostCore

/// The host currently open on an adapter; the ladder's rungs close it and put a fresh one in.
package actor HostSlot {
    package private(set) var host: HCIHost?

    package init(_ host: HCIHost? = nil) { self.host = host }

    /// Closes the current host, if any.
    package func close() async {
        if let host { await host.close() }
        host = nil
    }

    package func put(_ host: HCIHost) { self.host = host }
}

extension RecoveryLadder {
    /// The standard ladder for one adapter.
    ///
    /// - `openHost` opens a new host on the adapter (usually `ControllerOpener.openHost` for its moniker);
    /// - `usbReset` resets the adapter's USB device (nil for an adapter that is not on USB);
    /// - `powerSwitch` switches the adapter's own hub port (nil when the rig has none);
    /// - `resetTimeout` bounds every command of the initialization that proves the adapter answers.
    package static func standard(adapter: String, slot: HostSlot,
                                openHost: @escaping @Sendable () async throws -> HCIHost,
                                usbReset: (@Sendable () async throws -> String)?,
                                powerSwitch: (any PowerSwitch)?,
                                resetTimeout: Duration = .seconds(2), offTime: Duration = .seconds(2),
                                settle: Duration = .milliseconds(300), clock: LoopClock = .real) -> RecoveryLadder {
        /// Opens a fresh host and initializes it: the proof that the adapter answers again.
        @Sendable func reopen(after action: String) async -> Attempt {
            do {
                let host = try await openHost()
                do {
                    let info = try await host.initialize(timeout: resetTimeout)
                    await slot.put(host)
                    return .recovered("\(action); reopened, HCI Reset answered (BD_ADDR \(info.address))")
                } catch {
                    await host.close()
                    return .failed("\(action); reopened, but initialization failed: \(error)")
                }
            } catch {
                return .failed("\(action); reopening failed: \(error)")
            }
        }

        var rungs: [Rung] = []
        rungs.append(Rung(name: "HCI Reset") {
            guard let host = await slot.host else { return .skipped("no open host to reset") }
            do {
                let info = try await host.initialize(timeout: resetTimeout)
                return .recovered("HCI Reset answered (BD_ADDR \(info.address))")
            } catch {
                return .failed("\(error)")
            }
        })
        rungs.append(Rung(name: "USB reset") {
            guard let usbReset else { return .skipped("the adapter is not a USB device this bench can reset") }
            await slot.close()
            let done: String
            do { done = try await usbReset() } catch { return .failed("USB reset failed: \(error)") }
            try? await Task.sleep(for: settle, clock: clock)
            return await reopen(after: done)
        })
        rungs.append(Rung(name: "close and reopen") {
            await slot.close()
            try? await Task.sleep(for: settle, clock: clock)
            return await reopen(after: "closed")
        })
        rungs.append(Rung(name: "power-cycle hub port", deadline: .seconds(60)) {
            guard let powerSwitch else { return .skipped("the rig names no switch for the adapter's hub port") }
            await slot.close()
            let transition: PowerTransition
            do { transition = try await powerSwitch.cycle(offTime: offTime) } catch {
                return .failed("power-cycling \(powerSwitch.name) failed: \(error)")
            }
            try? await Task.sleep(for: settle, clock: clock)
            return await reopen(after: "\(powerSwitch.name) cycled (\(transition.verification))")
        })
        return RecoveryLadder(adapter: adapter, rungs: rungs, clock: clock)
    }
}
