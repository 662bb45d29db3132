import Foundation
import DeviceControl
import EventLoops
import PowerMeters

/// A rig's `command` meter on one case: its program (`CommandMeterRecorder`) started when the case opens and
/// stopped the first time the case's figures are asked for, when it ends; its CSV put on the bench's clock
/// (`time_s` from the instant the program was started, `unix_s` through the wall clock read then). A window
/// the recorded trace does not cover is an error saying what it covers.
package struct CommandMeter: AccessoryMeter {
    package let name: String
    package let supplyVolts: Double
    let recorder: CommandMeterRecorder
    /// The nominal rate a window's `samples` are counted at, as the other meters' (a PPK2's 100 kHz).
    static let samplesPerSecond = 100_000

    package init(name: String, supplyVolts: Double, recorder: CommandMeterRecorder) {
        (self.name, self.supplyVolts, self.recorder) = (name, supplyVolts, recorder)
    }

    /// Starts the program at `instant` on the bench's clock and waits for its first sample.
    package func begin(at instant: LoopClock.Instant) async throws {
        try await recorder.start(at: instant)
    }

    package func figures(from start: LoopClock.Instant, to end: LoopClock.Instant) async throws -> CurrentFigures {
        let samples = try await recorder.stop().get()
        guard let origin = await recorder.startInstant else { throw PowerMeterError(.unavailable, "\(name): the command was not started") }
        let (a, b) = ((start - origin) / .seconds(1), (end - origin) / .seconds(1))
        guard let first = samples.times.first, a >= first, b <= samples.end else {
            let covered = samples.times.first.map { "\(seconds($0)) to \(seconds(samples.end))" } ?? "nothing (no sample)"
            throw PowerMeterError(.io, "\(name): the trace in \(recorder.csvPath) covers \(covered) s from the program's start, not the window asked, \(seconds(a)) to \(seconds(b)) s")
        }
        return samples.figures(from: a, to: b, samplesPerSecond: Self.samplesPerSecond, supplyVolts: supplyVolts)
    }

    /// Stops the program if nothing asked for figures (a case that marked no span and kept no trace).
    package func end() async {
        _ = await recorder.stop()
    }

    private func seconds(_ value: Double) -> String { String(format: "%.3f", value) }
}
