import PowerMeters
import Support
import Synchronization

/// A PPK2 in source mode as its accessory's power switch: DEVICE_RUNNING_SET turns the supply it gives the device
/// under test on or off, and the PPK2's own stream verifies it. The PPK2 reports no output voltage, so the current
/// is the evidence: off is verified by the first `window` after the command whose average is below
/// `offMicroamperes` (nothing draws from a cut supply), on by the first above it. Off not seen within `deadline` is
/// a `.verificationFailed` with the last figure; an accessory that draws less than `offMicroamperes` while powered
/// cannot be told from one that is not, so on not seen is unverified, saying so.
package final class PPK2PowerSwitch<C: Clock<Duration>>: PowerSwitch {
    package let name: String
    package let stream: PPK2Stream<C>
    package let offMicroamperes: Double
    package let window: Duration
    package let deadline: Duration
    private let commanded = Mutex<Power?>(nil)

    package init(name: String, stream: PPK2Stream<C>, offMicroamperes: Double = 0.5, window: Duration = .milliseconds(10), deadline: Duration = .seconds(1)) {
        self.name = name
        self.stream = stream
        self.offMicroamperes = offMicroamperes
        self.window = window
        self.deadline = deadline
    }

    package func on() async throws -> PowerTransition { try await set(.on) }

    package func off() async throws -> PowerTransition { try await set(.off) }

    package func state() async throws -> PowerStatus {
        guard let power = commanded.withLock({ $0 }) else {
            return PowerStatus(state: .unknown(reason: "the PPK2 does not report whether its DUT supply is on"), detail: "not switched in this run")
        }
        return PowerStatus(state: PowerState(power), detail: "DEVICE_RUNNING_SET \(power == .on ? 1 : 0) sent")
    }

    private func set(_ power: Power) async throws -> PowerTransition {
        let clock = stream.meter.clock
        let start = clock.now
        do {
            try await stream.send(.devicePower(on: power == .on))
        } catch {
            throw PowerSwitchError(.deviceFailure, "\(name): DEVICE_RUNNING_SET \(power == .on ? 1 : 0) was not sent: \(error)")
        }
        commanded.withLock { $0 = power }
        var from = start, last: CurrentFigures?
        var steps = ["sent DEVICE_RUNNING_SET \(power == .on ? 1 : 0)"]
        while from.advanced(by: window) <= start.advanced(by: deadline) {
            let figures: CurrentFigures
            do {
                figures = try await stream.figures(from: from, to: from.advanced(by: window))
            } catch {
                throw PowerSwitchError(.deviceFailure, "\(name): switched \(power.rawValue), but its PPK2 gave no figures to verify it: \(error)")
            }
            let after = start.duration(to: from.advanced(by: window))
            if (figures.averageMicroamperes < offMicroamperes) == (power == .off) {
                let evidence = "the PPK2 measured \(Self.format(figures.averageMicroamperes)) µA over the \(window) ending \(after) after the command (\(power == .off ? "below" : "above") \(Self.format(offMicroamperes)) µA)"
                steps.append(evidence)
                return PowerTransition(switchName: name, action: PowerAction(power), verification: .verified(evidence: evidence), elapsed: after, steps: steps)
            }
            last = figures
            from = from.advanced(by: window)
        }
        let measured = last.map { "\(Self.format($0.averageMicroamperes)) µA" } ?? "nothing"
        if power == .off {
            throw PowerSwitchError(.verificationFailed, "\(name): switched off, but the PPK2 still measured \(measured) over the last \(window) of \(deadline) after the command (off is below \(Self.format(offMicroamperes)) µA)")
        }
        let reason = "the PPK2 measured \(measured) over the last \(window) of \(deadline) after the command, no more than a cut supply (\(Self.format(offMicroamperes)) µA): an accessory drawing so little cannot be seen to power up"
        steps.append(reason)
        return PowerTransition(switchName: name, action: .on, verification: .unverified(reason: reason), elapsed: deadline, steps: steps)
    }

    private static func format(_ microamperes: Double) -> String {
        let rounded = (microamperes * 1000).rounded() / 1000
        return "\(rounded)"
    }
}
