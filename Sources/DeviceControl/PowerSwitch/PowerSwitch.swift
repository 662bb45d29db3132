/// Something that switches an accessory's power: a USB hub port, a YKUSH port, a relay, a PDU outlet,
/// an emulator process, or (later) a simulated bench's switch.
///
/// A switch is never trusted: `on`, `off` and `cycle` return only once the transition has been verified
/// (the devices behind the switch left or came back) or, where nothing can be observed, say so in the
/// result's `verification`. A transition that can be observed and did not happen throws a
/// `PowerSwitchError` of kind `.verificationFailed`.
///
/// Every method throws `PowerSwitchError` only.
public protocol PowerSwitch: Sendable {
    /// How messages name this switch: `usb-hub:1-1.4 port 2`, `pdu-outlet-3`.
    var name: String { get }
    /// Turns the power on and verifies that what is behind the switch came up.
    func on() async throws -> PowerTransition
    /// Turns the power off and verifies that what is behind the switch went away.
    func off() async throws -> PowerTransition
    /// Off, wait `offTime`, on; each half verified.
    func cycle(offTime: Duration) async throws -> PowerTransition
    /// What the switch reports now, without changing anything.
    func state() async throws -> PowerStatus
}

extension PowerSwitch {
    /// The plain composition: off, wait, on. Switches that can remember what disappeared override it.
    package func cycle(offTime: Duration) async throws -> PowerTransition {
        try await cycle(offTime: offTime, clock: ContinuousClock())
    }

    /// Off, `offTime` on `clock` (a simulated bench's virtual time, where a real sleep would let the world
    /// run ahead unseen), on; the elapsed time measured on `clock` too.
    package func cycle<C: Clock>(offTime: Duration, clock: C) async throws -> PowerTransition where C.Duration == Duration {
        let start = clock.now
        let offResult = try await off()
        try await Task.sleep(for: offTime, clock: clock)
        let onResult = try await on()
        return PowerTransition(
            switchName: name, action: .cycle(offTime: offTime),
            verification: .combine(off: offResult.verification, on: onResult.verification),
            elapsed: start.duration(to: clock.now), steps: offResult.steps + ["waited \(offTime.seconds)"] + onResult.steps)
    }
}
