import PowerMeters
import Testing

/// The current trace's CSV: a bin a row as written beside a capture, read back to the same charge; a file a
/// `command` meter's program wrote, held sample by sample; and a bad row named by file and line.
@Suite struct CurrentTraceCSVTests {
    @Test func aTraceReadsBackToItsCharge() throws {
        // 3 ms of 2 µA, a 1 ms bin of 12 µC (12,000 µA), 1 ms of 2 µA: 0.002·4 + 12 µC over 5 ms.
        let trace = CurrentTrace(binSeconds: 0.001, microamperes: [2, 2, 2, 12_002, 2])
        let text = CurrentTraceCSV.render(trace)
        #expect(text.hasPrefix("time_s,current_uA\n0,2\n0.001,2\n0.002,2\n0.003,12002\n0.004,2\n"))
        let file = try CurrentTraceCSV.read(text, file: "t.csv")
        #expect(file.clock == .fromStart)
        let samples = file.samples
        #expect(samples.end == 0.005)
        #expect(abs(samples.chargeMicrocoulombs(from: 0, to: 0.005) - (12 + 0.01)) < 1e-9)
        #expect(abs(samples.chargeMicrocoulombs(from: 0.003, to: 0.0035) - 6.001) < 1e-9, "half a bin holds half its charge")
    }

    @Test func samplesHoldUntilTheNextOne() throws {
        // A program's own rate: 100 µA for 0.5 s, then 1 mA for 0.25 s, then 10 µA (the last sample holds 0.25 s).
        let text = "# a comment\nunix_s, current_uA\r\n1764950000,100\n1764950000.5,1000\n1764950000.75,10\n"
        let file = try CurrentTraceCSV.read(text, file: "t.csv")
        #expect(file.clock == .unix)
        let samples = CurrentSamples(times: file.samples.times.map { $0 - 1_764_950_000 }, microamperes: file.samples.microamperes)
        let figures = samples.figures(from: 0, to: 1, samplesPerSecond: 1000, supplyVolts: 3)
        #expect(figures.samples == 1000)
        #expect(abs(figures.chargeMicrocoulombs - (50 + 250 + 2.5)) < 1e-9)
        #expect(abs(figures.averageMicroamperes - 302.5) < 1e-9)
    }

    @Test(arguments: [
        ("time,current\n0,1\n", "t.csv:1: expected the header time_s,current_uA or unix_s,current_uA"),
        ("time_s,current_uA\n0,1\n0.1,2,3\n", "t.csv:3: expected 2 columns"),
        ("time_s,current_uA\n0,1\n0.1,x\n", "t.csv:3: current_uA is not a number"),
        ("time_s,current_uA\nnan,1\n", "t.csv:2: the time is not a number"),
        ("time_s,current_uA\n0,1\n0,2\n", "t.csv:3: the time does not increase"),
        ("time_s,current_uA\n0,-1\n", "t.csv:2: current_uA is negative"),
        ("", "t.csv: empty"),
    ])
    func aBadRowIsNamedByFileAndLine(text: String, message: String) {
        #expect {
            _ = try CurrentTraceCSV.read(text, file: "t.csv")
        } throws: { error in
            (error as? PowerMeterError)?.message.hasPrefix(message) == true
        }
    }

    @Test func binsWidenToKeepLongCasesSmall() {
        #expect(CurrentTrace.binSeconds(for: 4) == 0.001)
        #expect(CurrentTrace.binSeconds(for: 6) == 0.002)
        #expect(CurrentTrace.binSeconds(for: 300) == 0.1)
        let plot = CurrentTrace(binSeconds: 0.001, microamperes: [1, 3, 5, 7, 9]).downsampled(toAtMost: 2)
        #expect(plot == CurrentTrace(binSeconds: 0.003, microamperes: [3, 8]))
    }
}
