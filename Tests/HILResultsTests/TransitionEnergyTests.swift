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

    @Test func reportHasALinePerTransition() {
        let html = HTMLReport.render(Self.assembly([Self.idle]))
        #expect(html.contains("<table class=\"energy\">"))
        #expect(html.contains("<td>connection: idle after disconnect</td>"))
        #expect(html.contains("2 µA") && html.contains("1 µC") && html.contains("3 µJ"))
        #expect(!HTMLReport.render(Self.assembly(nil)).contains("<table class=\"energy\">"))
    }
}
