import MCUmgr

extension AccessoryPlayer {
    /// Serves MCUmgr SMP over the profile's slots (`AccessoryUpdates`) until cancelled: Sources/MCUmgr's
    /// `MCUmgrServer`, its resets played as the device's (`resetForUpdate`). Nil without `mcumgr`.
    func serveUpdates() async -> Task<Void, Never>? {
        guard let slots else { return nil }
        let server: MCUmgrServer
        do { server = try await MCUmgrServer(device: device, slots: slots) } catch {
            log.record(.update, "cannot serve MCUmgr SMP: \(error)")
            return nil
        }
        log.record(.update, "MCUmgr SMP served; slots: \(await Self.describe(slots.states))")
        return task { [weak self] in
            await server.run { [weak self] in await self?.resetForUpdate() }
        }
    }

    /// What an MCUmgr reset does to a device with MCUboot: 250 ms after answering (Zephyr's
    /// CONFIG_MCUMGR_GRP_OS_RESET_MS default, so the response leaves first) the controller resets with the links up
    /// (HCI Reset: the central sees them time out, as after a real reset), MCUboot boots (swapping or reverting,
    /// taking the profile's `swap_ms`), and the application advertises again.
    func resetForUpdate() async {
        guard let slots else { return }
        try? await clock.sleep(until: clock.now.advanced(by: .milliseconds(250)), tolerance: nil)
        guard !Task.isCancelled else { return }
        log.record(.update, "MCUmgr reset: the controller resets with its links up, MCUboot boots")
        do { try await device.host.initialize() } catch {
            log.record(.update, "MCUmgr reset: HCI Reset failed: \(error)")
        }
        guard await slots.boot() else {
            log.record(.update, "MCUboot boots no application")
            return
        }
        log.record(.update, "MCUboot booted; slots: \(Self.describe(await slots.states))")
        do { try await advertise() } catch { log.record(.update, "cannot advertise after the reset: \(error)") }
    }

    /// The slots as one line: `slot 0 1.0.0 6a1f… active confirmed; slot 1 …`.
    static func describe(_ states: [MCUmgrImageState]) -> String {
        states.map { state in
            let flags = [state.active ? "active" : nil, state.pending ? "pending" : nil, state.confirmed ? "confirmed" : nil,
                         state.permanent ? "permanent" : nil].compactMap { $0 }
            let hash = state.hash.map { String(AccessoryImage.hex($0).prefix(16)) + "…" } ?? "no hash"
            return "slot \(state.slot) \(state.version) \(hash)" + (flags.isEmpty ? "" : " " + flags.joined(separator: " "))
        }.joined(separator: "; ")
    }
}
