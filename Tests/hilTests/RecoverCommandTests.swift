import Foundation
@testable import hil
import Testing
import TestSupport

/// `hil recover` takes `sim:` like every other command: the ladder runs against the rig's simulated bench.
@Suite struct RecoverCommandTests {
    @Test func aHealthySimulatedAdapterAnswersAtOnce() async {
        let rig = repositoryRoot.appendingPathComponent("rigs/simulated.json").path
        #expect(await RecoverCommand.run(Arguments(["sim:central", "--rig", rig])) == .success)
    }

    @Test func aWedgedSimulatedAdapterIsABrokenBench() async {
        let rig = repositoryRoot.appendingPathComponent("rigs/simulated-wedged-adapter.json").path
        #expect(await RecoverCommand.run(Arguments(["sim:central", "--rig", rig, "--reset-timeout", "0.2"])) == .infrastructureError)
    }

    @Test(arguments: [["sim:nope"], ["sim:central", "--rig", "/nonexistent/rig.json"], ["bogus:1"], ["sim:central", "--port", "2"]])
    func badAdaptersAndRigsAreUsageErrors(words: [String]) async {
        var words = words
        if words.first == "sim:nope" { words += ["--rig", repositoryRoot.appendingPathComponent("rigs/simulated.json").path] }
        #expect(await RecoverCommand.run(Arguments(words)) == .usageError)
    }
}
