import Foundation
@testable import PowerMeters
import Testing
import TestSupport

/// hil's PPK2 decoder against ppk2-api 0.9.2 (PyPI; Nordic's PPK2 protocol as the nRF Connect Power Profiler
/// speaks it, through scripts/peers/ppk2-decode.py): the same stream and metadata give the same current for every
/// sample, and the same average current for each window, at four levels from 1 µA to 50 mA with the range
/// switches between them and words split across reads.
@Suite(.serialized, .tags(.process)) struct PPK2APIAgreementTests {
    static let python = repositoryRoot.appendingPathComponent(".venv/bin/python").path
    static let script = repositoryRoot.appendingPathComponent("scripts/peers/ppk2-decode.py").path

    /// A calibration as a PPK2 reports one: every field away from its default, so a field read wrong shows.
    static let metadata = """
        Calibrated: 0
        R0: 1012.34
        R1: 100.21
        R2: 10.07
        R3: 0.9512
        R4: 0.0421
        GS0: 0.00012
        GS1: 0.00087
        GS2: 0.0061
        GS3: 0.034
        GS4: 0.29
        GI0: 1.0071
        GI1: 0.9982
        GI2: 1.0013
        GI3: 0.9958
        GI4: 1.0102
        O0: 112.5
        O1: 76.25
        O2: 63.0
        O3: 58.75
        O4: 61.5
        S0: -0.00000021
        S1: 0.0000013
        S2: -0.0000089
        S3: 0.000041
        S4: 0.00022
        I0: 0.000000012
        I1: -0.00000031
        I2: 0.0000027
        I3: -0.000019
        I4: 0.00011
        UG0: 1.0003
        UG1: 0.9991
        UG2: 1.0008
        UG3: 1.0
        UG4: 0.9975
        HW: 9173
        IA: 56
        END

        """
    static let supplyMillivolts = 3000

    /// Four windows of 20,000 samples (0.2 s each): the level in µA and the range a PPK2 measures it on.
    static let windows: [(microamperes: Double, range: Int)] = [(1, 0), (100, 0), (5_000, 1), (50_000, 2)]
    static let samplesPerWindow = 20_000

    /// The 14-bit reading whose current on `range` is closest to `microamperes` under `calibration`.
    static func reading(for microamperes: Double, range: Int, calibration: PPK2Calibration, volts: Double) -> UInt32 {
        var best: UInt32 = 0, bestError = Double.infinity
        for reading in UInt32(0)...0x3FFF {
            let error = abs(calibration.amperes(counts: Double(reading) * 4, range: range, supplyVolts: volts) * 1e6 - microamperes)
            if error < bestError { (best, bestError) = (reading, error) }
        }
        return best
    }

    @Test("Every sample and each window's average current as ppk2-api decodes them (within 1%; in fact 1e-9)")
    func agreesWithPPK2API() async throws {
        if !FileManager.default.isExecutableFile(atPath: Self.python) {
            let made = await runProgram(repositoryRoot.appendingPathComponent("scripts/peers/venv").path, [])
            try #require(made.status == 0, "cannot create the Python venv for ppk2-api: \(made.output)")
        }
        let calibration = try PPK2Metadata(Self.metadata).calibration
        var stream: [UInt8] = []
        for (index, window) in Self.windows.enumerated() {
            let base = Self.reading(for: window.microamperes, range: window.range, calibration: calibration, volts: 3)
            for sample in 0..<Self.samplesPerWindow {
                // A reading that wanders one step either side, as a real one does, and a logic input per window.
                let reading = sample % 3 == 0 ? base + 1 : (sample % 3 == 1 ? base - min(base, 1) : base)
                let word = reading | UInt32(window.range) << 14 | UInt32(1 << index) << 24
                stream += [UInt8(word & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word >> 16 & 0xFF), UInt8(word >> 24)]
            }
        }
        let directory = try TemporaryDirectory.make("ppk2")
        defer { TemporaryDirectory.remove(directory) }
        let streamFile = directory.appendingPathComponent("stream.bin"), metadataFile = directory.appendingPathComponent("metadata.txt")
        try Data(stream).write(to: streamFile)
        try Data(Self.metadata.utf8).write(to: metadataFile)
        // Reads of 1,021 octets: most words split across two reads, as on a real port.
        let chunk = 1_021
        let reference = await runProgramCapturing(Self.python, [Self.script, streamFile.path, metadataFile.path, "\(Self.supplyMillivolts)", "\(chunk)"])
        try #require(reference.termination?.exitStatus == 0, "ppk2-decode.py: \(reference.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(reference.stdout.utf8)) as? [String: Any])
        let theirs = try #require(json["microamperes"] as? [Double])
        let theirLogic = try #require(json["logic"] as? [Int])

        var decoder = PPK2Decoder(calibration: calibration, supplyMillivolts: Self.supplyMillivolts)
        var ours: [PPK2Sample] = []
        for start in stride(from: 0, to: stream.count, by: chunk) {
            ours += try decoder.decode(stream[start..<min(start + chunk, stream.count)])
        }
        try #require(ours.count == theirs.count && theirs.count == Self.windows.count * Self.samplesPerWindow)
        let mismatches = zip(ours, theirs).enumerated().filter { abs($1.0.microamperes - $1.1) > 1e-9 * max(1, abs($1.1)) }
        #expect(mismatches.isEmpty, "\(mismatches.count) samples differ; first: \(mismatches.first.map { "#\($0.offset): ours \($0.element.0.microamperes) µA, ppk2-api \($0.element.1) µA" } ?? "")")
        #expect(ours.map { Int($0.logic) } == theirLogic)
        for (index, window) in Self.windows.enumerated() {
            let range = index * Self.samplesPerWindow..<(index + 1) * Self.samplesPerWindow
            let mine = CurrentFigures(microamperes: ours[range].map(\.microamperes), samplesPerSecond: PPK2Sample.perSecond, supplyVolts: 3)
            let reference = theirs[range].reduce(0, +) / Double(Self.samplesPerWindow)
            #expect(abs(mine.averageMicroamperes - reference) <= 0.01 * reference, "window \(index): ours \(mine.averageMicroamperes) µA, ppk2-api \(reference) µA")
            // And the stream stands for the level it was made for (the readings' one-step wander and a
            // reading's quantum, 42 nA on range 0, are within 5% of 1 µA).
            #expect(abs(mine.averageMicroamperes - window.microamperes) <= 0.05 * window.microamperes, "window \(index): \(mine.averageMicroamperes) µA for \(window.microamperes) µA")
        }
    }
}
