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

    /// A calibration as a PPK2 reports one (Tests/Fixtures/PPK2/metadata.txt): every field away from its
    /// default, so a field read wrong shows.
    static let metadataFile = repositoryRoot.appendingPathComponent("Tests/Fixtures/PPK2/metadata.txt")
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
        let metadata = try String(contentsOf: Self.metadataFile, encoding: .utf8)
        let calibration = try PPK2Metadata(metadata).calibration
        var stream: [UInt8] = []
        for (index, window) in Self.windows.enumerated() {
            let base = Self.reading(for: window.microamperes, range: window.range, calibration: calibration, volts: 3)
            for sample in 0..<Self.samplesPerWindow {
                // A reading that wanders one step either side, as a real one does, and a logic input per window.
                let reading = sample % 3 == 0 ? base + 1 : (sample % 3 == 1 ? base - min(base, 1) : base)
                // Its sample counter in bits 18–23, which ppk2-api does not read.
                let counter = UInt32((index * Self.samplesPerWindow + sample) & 0x3F)
                let word = reading | UInt32(window.range) << 14 | counter << 18 | UInt32(1 << index) << 24
                stream += [UInt8(word & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word >> 16 & 0xFF), UInt8(word >> 24)]
            }
        }
        let directory = try TemporaryDirectory.make("ppk2")
        defer { TemporaryDirectory.remove(directory) }
        let streamFile = directory.appendingPathComponent("stream.bin")
        try Data(stream).write(to: streamFile)
        // Reads of 1,021 octets: most words split across two reads, as on a real port.
        let chunk = 1_021
        let reference = await runProgramCapturing(Self.python, [Self.script, streamFile.path, Self.metadataFile.path, "\(Self.supplyMillivolts)", "\(chunk)"])
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
