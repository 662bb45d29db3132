import Foundation
@testable import HILResults
import Testing
import TestSupport

/// `hil report --history` trends each transition's energy like connect time: a series of its charge (µC) and
/// one of its average current (µA) per transition, in history.json beside the measurements and as trend lines
/// in history.html; the same transition in every run and every cycle of a loop is one series.
@Suite struct HistoryEnergyTests {
    static func transition(_ label: String, lane: TimelineEvent.Lane = .power, microamperes: Double, charge: Double) -> TransitionEnergy {
        TransitionEnergy(lane: lane, label: label, offset: 1, duration: 0.5, averageMicroamperes: microamperes, chargeMicrocoulombs: charge,
                         energyMicrojoules: charge * 3)
    }

    /// Three runs; the third is the firmware that stopped sleeping after a disconnect (4 µA became 400 µA).
    static func runs() -> [RunResults] {
        let idle: [Double] = [4, 4.2, 400]
        return idle.enumerated().map { index, microamperes in
            let context = RunContext(host: "h", gitCommit: "c\(index)", started: SampleRecords.start.addingTimeInterval(Double(index)))
            var record = SampleRecords.record("sleepsAfterDisconnect")
            record.energy = [transition("idle after disconnect", microamperes: microamperes, charge: microamperes / 2),
                             transition("power on: verified (1 device enumerated)", microamperes: 50, charge: 5),
                             transition("cycle \(index + 1): connected", lane: .connection, microamperes: 900, charge: 12)]
            let cases = [CaseResult(record: record, source: .record)]
            return RunResults(layout: ResultsLayout(URL(fileURLWithPath: "/tmp/run-\(index)")), context: context, cases: cases,
                              summary: Assembly(context: context, cases: cases).summary, source: .records)
        }
    }

    @Test func eachTransitionIsASeriesOfItsChargeAndAverageCurrent() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: HistoryJSON.render(RunHistory(Self.runs()))) as? [String: Any])
        let measurements = try #require(json["measurements"] as? [[String: Any]])
        func p95s(_ name: String, _ unit: String) throws -> [Double?] {
            let series = try #require(measurements.first { $0["name"] as? String == name && $0["unit"] as? String == unit },
                                      "no \(name) (\(unit)) in \(measurements.compactMap { $0["name"] })")
            return try #require(series["runs"] as? [Any]).map { ($0 as? [String: Any])?["p95"] as? Double }
        }
        #expect(try p95s("energy · power: idle after disconnect", "µA") == [4, 4.2, 400])
        #expect(try p95s("energy · power: idle after disconnect", "µC") == [2, 2.1, 200])
        #expect(try p95s("energy · power: power on", "µC") == [5, 5, 5], "the switch's verification is not part of the name")
        #expect(try p95s("energy · connection: connected", "µA") == [900, 900, 900], "every cycle of a loop is one series")
        #expect(measurements.filter { ($0["name"] as? String)?.hasPrefix("energy · ") == true }.count == 6)
    }

    @Test func historyHTMLDrawsATrendLinePerSeries() {
        let html = HistoryHTML.render(RunHistory(Self.runs()))
        #expect(html.contains("<section id=\"energy\"><h2>Energy per transition: p95 per run</h2>"))
        #expect(html.contains("<figcaption>power: idle after disconnect p95 (µA)</figcaption><svg"))
        #expect(!html.contains("<td class=\"name\">energy · "), "not repeated among the other measurements")
    }
}
