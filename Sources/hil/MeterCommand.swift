import DeviceControl
import Foundation
import PowerMeters

/// `hil meter ppk2:PORT [--seconds S] [--window S] [--mode ampere|source] [--voltage-mv MV] [--json]`: reads a
/// power meter on its own — its metadata (and calibration), then its samples for the time asked — and prints
/// the average current, the charge, the energy and the sample count, for the whole and for each window.
enum MeterCommand {
    static let usage = """
        usage: hil meter ppk2:PORT [--seconds S] [--window S] [--mode ampere|source] [--voltage-mv MV] [--json]
        Reads a Nordic Power Profiler Kit II on its serial port: PORT is a path (/dev/ttyACM0, a /dev/serial/by-id/
        path) or the PPK2's USB ID and serial, usb:1915:c00a/SERIAL (the serial optional with one PPK2 plugged in):
        its metadata and calibration, then --seconds (default 1, at most 600) of samples, 100,000 a second,
        counted on the meter's own clock. --mode ampere (default) measures a supply of the device's own, in
        series; --mode source supplies the device from the PPK2 at --voltage-mv (800–5000, default 3000) and
        switches its supply on first (and leaves it on). In ampere mode --voltage-mv is the supply the
        calibration and the energy assume. Prints the average current (µA), the charge (µC), the energy (µJ) and
        the sample count (samples its counter says were lost on the way count as the one before their gap, and
        are said), and with --window S the same for each window of S seconds; --json prints one object
        (meter, port, mode, voltage_mV, seconds, samples, lost_samples, avg_uA, charge_uC, energy_uJ, windows).
        Exit 0; 2 when the meter cannot be opened, sends no metadata within 2 s, stops streaming for 1 s or
        reports a range error (each said with what it last sent); 3 for a wrong command line.
        """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let port: String, seconds: Double, window: Double?, mode: PPK2Mode, millivolts: Int, json: Bool
        do {
            let moniker = try arguments.required("the meter (ppk2:PORT)")
            guard moniker.hasPrefix("ppk2:"), moniker.count > 5 else {
                throw UsageError("'\(moniker)' is not a meter: ppk2:PORT (the only kind hil meter reads today)")
            }
            port = String(moniker.dropFirst(5))
            seconds = try arguments.number("seconds", in: 0.001...600) ?? 1
            window = try arguments.number("window", in: 0.001...600)
            let modeText = try arguments.option("mode") ?? "ampere"
            guard let chosen = PPK2Mode(rawValue: modeText) else { throw UsageError("--mode takes ampere or source, not '\(modeText)'") }
            mode = chosen
            millivolts = Int(try arguments.number("voltage-mv", in: 800...5000) ?? 3000)
            json = arguments.flag("json")
            try arguments.finish()
        } catch {
            return Diagnostics.usageError("meter", error)
        }
        let samples = max(1, Int((seconds * Double(PPK2Sample.perSecond)).rounded()))
        let windowSamples = window.map { max(1, Int(($0 * Double(PPK2Sample.perSecond)).rounded())) } ?? samples
        do {
            let channel = try SerialMeterChannel(path: try MeterPort.resolve(port))
            defer { channel.close() }
            let meter = PPK2Meter(channel: channel, clock: ContinuousClock())
            let metadata = try await meter.metadata()
            try await meter.configure(mode: mode, millivolts: millivolts, devicePower: mode == .source ? true : nil)
            let recording = try await meter.record(
                samples: samples, decoder: PPK2Decoder(calibration: metadata.calibration, supplyMillivolts: millivolts),
                into: CurrentRecording(samplesPerSecond: PPK2Sample.perSecond, supplyVolts: Double(millivolts) / 1000, windowSamples: windowSamples))
            if json {
                let object = report(port: port, mode: mode, millivolts: millivolts, recording: recording, windows: window != nil)
                StandardStreams.output(try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
                print()
            } else {
                print(text(port: port, metadata: metadata, mode: mode, millivolts: millivolts, recording: recording, windows: window != nil), terminator: "")
            }
            return .success
        } catch let error as PowerMeterError {
            return Diagnostics.fail("meter", error.message, .infrastructureError)
        } catch {
            return Diagnostics.fail("meter", "\(error)", .infrastructureError)
        }
    }

    static func figures(_ figures: CurrentFigures) -> [String: Any] {
        ["samples": figures.samples, "seconds": figures.seconds, "avg_uA": figures.averageMicroamperes,
         "charge_uC": figures.chargeMicrocoulombs, "energy_uJ": figures.energyMicrojoules]
    }

    static func report(port: String, mode: PPK2Mode, millivolts: Int, recording: CurrentRecording, windows: Bool) -> [String: Any] {
        var object = figures(recording.total)
        object["meter"] = "ppk2"
        object["port"] = port
        object["mode"] = mode.rawValue
        object["voltage_mV"] = millivolts
        object["lost_samples"] = recording.lostSamples
        if windows {
            var start = 0.0
            object["windows"] = recording.windows.map { window -> [String: Any] in
                var entry = figures(window)
                entry["start_s"] = start
                start += window.seconds
                return entry
            }
        }
        return object
    }

    static func line(_ figures: CurrentFigures) -> String {
        String(format: "%d samples, %.4f s: average %.3f µA, charge %.3f µC, energy %.3f µJ",
               figures.samples, figures.seconds, figures.averageMicroamperes, figures.chargeMicrocoulombs, figures.energyMicrojoules)
    }

    static func text(port: String, metadata: PPK2Metadata, mode: PPK2Mode, millivolts: Int, recording: CurrentRecording, windows: Bool) -> String {
        var text = "PPK2 at \(port) (hardware \(metadata.hardware ?? "?"), calibrated \(metadata.calibrated ?? "?")), \(mode.rawValue) mode, \(millivolts) mV\n"
        text += line(recording.total) + "\n"
        if recording.lostSamples > 0 {
            text += "\(recording.lostSamples) samples lost on the way (gaps in the PPK2's sample counter), each counted as the sample before its gap\n"
        }
        if windows {
            var start = 0.0
            for window in recording.windows {
                text += String(format: "  from %.4f s: ", start) + line(window) + "\n"
                start += window.seconds
            }
        }
        return text
    }
}
