/// The only `PowerSwitch` DeviceControl hands out for hardware: an actuator whose every transition is
/// checked against the USB tree.
///
/// - `off`: the devices behind the switch (from the actuator's topology, or named by the rig) must
///   leave the kernel's device tree (sysfs; libusb where there is no sysfs) within `offDeadline`; the
///   switch must not still report on.
/// - `on`: the devices that left (or the rig's) must come back and enumerate within `onDeadline`;
///   with nothing expected, anything enumerating behind a watched hub port counts.
/// - Where nothing downstream is visible over USB the result is `.unverified`, with the reason.
///
/// Deadlines, polls, `cycle`'s off time and the elapsed times it reports are kept on `clock`: real time in
/// production, a virtual clock in a test (so a 3 s deadline is exactly 3 s of the test's time).
package actor VerifiedPowerSwitch: PowerSwitch {
    package nonisolated let name: String
    let actuator: any PowerActuator
    let probe: any USBPresenceProbe
    let named: [DeviceExpectation]
    let offDeadline: Duration
    let onDeadline: Duration
    let pollInterval: Duration
    let clock: any Clock<Duration>
    /// What left at the last verified `off`: what `on` waits for.
    private var departed: [DeviceExpectation] = []

    /// Wraps `actuator`, watching the devices `probe` sees. `clock` keeps the deadlines and polls (real time
    /// unless a test gives its own).
    package init(actuator: any PowerActuator, probe: any USBPresenceProbe, expecting named: [DeviceExpectation] = [],
                offDeadline: Duration = .seconds(3), onDeadline: Duration = .seconds(10),
                pollInterval: Duration = .milliseconds(100), clock: some Clock<Duration> = ContinuousClock()) {
        self.name = actuator.name
        self.actuator = actuator
        self.probe = probe
        self.named = named
        self.offDeadline = offDeadline
        self.onDeadline = onDeadline
        self.pollInterval = pollInterval
        self.clock = clock
    }

    package func state() async throws -> PowerStatus { try await actuator.status() }

    package func off() async throws -> PowerTransition { try await off(clock: self.clock) }

    package func on() async throws -> PowerTransition { try await on(clock: self.clock) }

    /// Off, `offTime` on this switch's clock, on: each half verified.
    package func cycle(offTime: Duration) async throws -> PowerTransition { try await cycle(offTime: offTime, clock: self.clock) }

    private func off<C: Clock<Duration>>(clock: C) async throws -> PowerTransition {
        let start = clock.now
        let before = try await probe.presentDevices()
        let known = try await actuator.downstream()
        var watched = known.devices.filter { expectation in before.contains(where: expectation.matches) }
        var notes: [String] = []
        for expectation in named {
            let matches = before.filter(expectation.matches)
            if matches.isEmpty { notes.append("\(expectation) (named to verify) was not enumerated before off") }
            for match in matches {
                let pinned = DeviceExpectation(location: match.location, id: match.id, serial: expectation.serial)
                if !watched.contains(pinned) { watched.append(pinned) }
            }
        }
        var steps: [String] = []
        let (reported, own) = try await switchActuator(.off, steps: &steps)
        guard !watched.isEmpty else {
            departed = []
            let verification: Verification
            if let own {
                verification = .verified(evidence: own)
            } else {
                verification = .unverified(reason: (notes + ["nothing behind \(name) was visible over USB before off (an accessory only powered by it cannot be seen leaving); name a device in the rig's verify.devices or with --expect to verify"]).joined(separator: "; "))
            }
            return PowerTransition(switchName: name, action: .off, verification: verification, elapsed: start.duration(to: clock.now), steps: steps)
        }
        let waitStart = clock.now
        let remaining = try await poll(until: offDeadline, clock: clock) { present in
            watched.filter { expectation in present.contains(where: expectation.matches) }
        }
        if !remaining.isEmpty {
            let still = remaining.map(\.description).joined(separator: ", ")
            throw PowerSwitchError(.verificationFailed,
                "\(name) reports \(reported.state) but \(still) \(remaining.count == 1 ? "is" : "are") still enumerated after \(offDeadline.seconds)")
        }
        departed = watched
        let evidence = watched.map(\.description).joined(separator: ", ") + " left after \(waitStart.duration(to: clock.now).seconds)"
            + (own.map { "; \($0)" } ?? "") + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
        steps.append(evidence)
        return PowerTransition(switchName: name, action: .off, verification: .verified(evidence: evidence), elapsed: start.duration(to: clock.now), steps: steps)
    }

    /// Sets the actuator to `power` (its steps become `steps`), then reads what it reports and its own
    /// evidence, both added to `steps`; throws when it still reports the opposite.
    private func switchActuator(_ power: Power, steps: inout [String]) async throws -> (reported: PowerStatus, own: String?) {
        steps = try await actuator.apply(power)
        let reported = try await actuator.status()
        steps.append("switch reports \(reported)")
        if reported.state == PowerState(power.opposite) {
            throw PowerSwitchError(.verificationFailed,
                                   "\(name): asked to turn \(power.rawValue), but it still reports \(power.opposite.rawValue) (\(reported.detail))")
        }
        let own = try await actuator.confirm(power)
        if let own { steps.append(own) }
        return (reported, own)
    }

    private func on<C: Clock<Duration>>(clock: C) async throws -> PowerTransition {
        let start = clock.now
        let known = try await actuator.downstream()
        var expected = departed
        for expectation in named where !expected.contains(where: { $0.id == expectation.id && (expectation.serial == nil || $0.serial == expectation.serial) }) {
            expected.append(expectation)
        }
        var steps: [String] = []
        let (reported, own) = try await switchActuator(.on, steps: &steps)
        let waitStart = clock.now
        if !expected.isEmpty {
            let missing = try await poll(until: onDeadline, clock: clock) { present in
                expected.filter { expectation in !present.contains(where: expectation.matches) }
            }
            if !missing.isEmpty {
                let seen = try await probe.presentDevices().filter { device in known.watchedLocations.contains { device.location.isWithin($0) } }
                let seenText = known.watchedLocations.isEmpty ? "" :
                    " (behind it now: \(seen.isEmpty ? "nothing" : seen.map(\.description).joined(separator: ", ")))"
                throw PowerSwitchError(.verificationFailed,
                    "\(name) reports \(reported.state) but \(missing.map(\.description).joined(separator: ", ")) did not enumerate within \(onDeadline.seconds)\(seenText)")
            }
            let evidence = expected.map(\.description).joined(separator: ", ") + " enumerated after \(waitStart.duration(to: clock.now).seconds)"
                + (own.map { "; \($0)" } ?? "")
            steps.append(evidence)
            return PowerTransition(switchName: name, action: .on, verification: .verified(evidence: evidence), elapsed: start.duration(to: clock.now), steps: steps)
        }
        if !known.watchedLocations.isEmpty {
            let appeared = try await poll(until: onDeadline, clock: clock) { present -> [USBPresence] in
                let found = present.filter { device in known.watchedLocations.contains { device.location.isWithin($0) } }
                return found.isEmpty ? [USBPresence(location: known.watchedLocations[0], id: USBID(vendor: 0, product: 0))] : []
            }
            if appeared.isEmpty {
                let found = try await probe.presentDevices().filter { device in known.watchedLocations.contains { device.location.isWithin($0) } }
                let evidence = found.map(\.description).joined(separator: ", ") + " enumerated after \(waitStart.duration(to: clock.now).seconds)"
                    + (own.map { "; \($0)" } ?? "")
                steps.append(evidence)
                return PowerTransition(switchName: name, action: .on, verification: .verified(evidence: evidence), elapsed: start.duration(to: clock.now), steps: steps)
            }
            if let own {
                return PowerTransition(switchName: name, action: .on, verification: .verified(evidence: own), elapsed: start.duration(to: clock.now), steps: steps)
            }
            let reason = "nothing enumerated behind \(name) within \(onDeadline.seconds) and nothing was expected to (an accessory only powered by it cannot be seen); name a device in the rig's verify.devices or with --expect to verify"
            return PowerTransition(switchName: name, action: .on, verification: .unverified(reason: reason), elapsed: start.duration(to: clock.now), steps: steps)
        }
        let verification: Verification = own.map { .verified(evidence: $0) }
            ?? .unverified(reason: "nothing behind \(name) is visible over USB; name a device in the rig's verify.devices or with --expect to verify")
        return PowerTransition(switchName: name, action: .on, verification: verification, elapsed: start.duration(to: clock.now), steps: steps)
    }

    /// Polls the probe until `outstanding` returns nothing or `limit` passes; returns what was still outstanding.
    private func poll<T: Sendable, C: Clock<Duration>>(until limit: Duration, clock: C, _ outstanding: ([USBPresence]) -> [T]) async throws -> [T] {
        let deadline = clock.now.advanced(by: limit)
        while true {
            let left = outstanding(try await probe.presentDevices())
            if left.isEmpty || clock.now >= deadline { return left }
            try await Task.sleep(for: pollInterval, clock: clock)
        }
    }
}
