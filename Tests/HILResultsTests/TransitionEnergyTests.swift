import Foundation
@testable import HILResults
import Testing
import TestSupport

/// A case's energy per transition: in results.json under the names `hil meter --json` uses (avg_uA,
/// charge_uC, energy_uJ), absent for a case without a meter, and a line per transition in report.html.
@Suite struct TransitionEnergyTests {
    static let idle = TransitionEnergy(lane: .connection, label: "idle after disconnect", offset: 1.5, duration: 0.5,
                                       averageMicroamperes: 2, chargeMicrocoulombs: 1, energyMicrojoules: 3)

    static func assembly(_ energy: [TransitionEnergy]?) -> Assembly {
        var records = SampleRecords.mixed()
        records[0].energy = energy
        return ResultsAssembler.assemble(records: records, run: nil, context: SampleRecords.context)
    }

    @Test func resultsJSONCarriesEachTransitionsFigures() throws {
        let data = try ResultsJSON.render(Self.assembly([Self.idle]))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(document["cases"] as? [[String: Any]])
        let energy = try #require(cases.compactMap { $0["energy"] as? [[String: Any]] }.first)
        #expect(energy.count == 1)
        #expect(energy[0]["avg_uA"] as? Double == 2 && energy[0]["charge_uC"] as? Double == 1 && energy[0]["energy_uJ"] as? Double == 3)
        #expect(energy[0]["label"] as? String == "idle after disconnect" && energy[0]["lane"] as? String == "connection")
        #expect(cases.filter { $0["energy"] != nil }.count == 1, "a case without a meter has no energy key")
    }

    /// Samples a meter lost on the way (a PPK2's counter jumped) are said where the span's figures are: in
    /// results.json as `lost_samples`, as `hil meter --json` says them, and under its line in report.html.
    @Test func lostSamplesAreSaidWhereThereAreAny() throws {
        var lossy = Self.idle
        lossy.lostSamples = 16
        let data = try ResultsJSON.render(Self.assembly([lossy, Self.idle]))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(document["cases"] as? [[String: Any]])
        let energy = try #require(cases.compactMap { $0["energy"] as? [[String: Any]] }.first)
        #expect(energy.map { $0["lost_samples"] as? Int } == [16, nil])
        #expect(energy[1].keys.contains("lost_samples") == false, "a span with none lost has no key")
        let decoded = try TestRecord.makeDecoder().decode([TransitionEnergy].self, from: try JSONSerialization.data(withJSONObject: energy))
        #expect(decoded == [lossy, Self.idle])
        let html = HTMLReport.render(Self.assembly([lossy]))
        #expect(html.contains("<td colspan=\"5\">16 of its samples lost on the way to the host"))
        #expect(!HTMLReport.render(Self.assembly([Self.idle])).contains("lost on the way"))
    }

    @Test func reportHasALinePerTransition() {
        let html = HTMLReport.render(Self.assembly([Self.idle]))
        #expect(html.contains("<table class=\"energy\">"))
        #expect(html.contains("<td>connection: idle after disconnect</td>"))
        #expect(html.contains("2 µA") && html.contains("1 µC") && html.contains("3 µJ"))
        #expect(!HTMLReport.render(Self.assembly(nil)).contains("<table class=\"energy\">"))
    }
}

extension TransitionEnergyTests {
    /// A case's current trace: named in results.json, plotted under the timeline on the same axis — the step
    /// of a point starting at 0.5 s sits at the x where the timeline draws an event at 0.5 s — and linked.
    @Test func theTracePlotSitsOnTheTimelinesAxis() throws {
        var records = SampleRecords.mixed()
        var record = records[0]
        record.timeline = [TimelineEvent(offset: 0.5, duration: 0.25, lane: .connection, label: "connect")]
        record.duration = 1
        record.trace = CaseTrace(path: "captures/a.current.csv", plotBinSeconds: 0.25, plotMicroamperes: [4, 4, 4000, 4])
        records[0] = record
        let timeline = try #require(TimelineSVG.render(record))
        let plot = try #require(CurrentPlotSVG.render(record))
        let barX = try #require(timeline.firstMatch(of: /class="event span" x="([0-9.]+)"/)?.1)
        #expect(plot.contains(" L\(barX) "), "the step at 0.5 s starts where the timeline's bar does (x=\(barX)): \(plot)")
        #expect(plot.contains(">1 µA<") && plot.contains(">10 mA<"), "decades from 1 µA to 10 mA")
        let html = HTMLReport.render(ResultsAssembler.assemble(records: records, run: nil, context: SampleRecords.context))
        #expect(html.contains("<svg class=\"current\"") && html.contains("href=\"captures/a.current.csv\""))
        let document = try #require(try JSONSerialization.jsonObject(with: ResultsJSON.render(ResultsAssembler.assemble(records: records, run: nil,
                                                                                                                         context: SampleRecords.context))) as? [String: Any])
        let cases = try #require(document["cases"] as? [[String: Any]])
        let trace = try #require(cases.compactMap { $0["trace"] as? [String: Any] }.first)
        #expect(trace["path"] as? String == "captures/a.current.csv" && (trace["plot_uA"] as? [Double])?.count == 4)
    }
}
