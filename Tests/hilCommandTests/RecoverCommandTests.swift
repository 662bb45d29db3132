import Foundation
@testable import hil
import Testing
import TestSupport

/// `hil recover` takes `sim:` like every other command: the ladder runs against the rig's simulated bench, here
/// as a drive of the bench's virtual clock (the ladder's reset deadlines, USB reset and power cycle are the
/// bench's time, not the wall clock's).
@Suite struct RecoverCommandTests {
    @Test func aHealthySimulatedAdapterAnswersAtOnce() async {
        let rig = repositoryRoot.appendingPathComponent("rigs/simulated.json").path
        #expect(await RecoverCommand.run(Arguments(["sim:central", "--rig", rig]), drivesSimulation: true) == .success)
    }

    @Test func aWedgedSimulatedAdapterIsABrokenBench() async {
        let rig = repositoryRoot.appendingPathComponent("rigs/checks/simulated-wedged-adapter.json").path
        #expect(await RecoverCommand.run(Arguments(["sim:central", "--rig", rig, "--reset-timeout", "0.2"]), drivesSimulation: true) == .infrastructureError)
    }

    @Test(arguments: [["sim:nope"], ["sim:central", "--rig", "/nonexistent/rig.json"], ["bogus:1"], ["sim:central", "--port", "2"]])
    func badAdaptersAndRigsAreUsageErrors(words: [String]) async {
        var words = words
        if words.first == "sim:nope" { words += ["--rig", repositoryRoot.appendingPathComponent("rigs/simulated.json").path] }
        #expect(await RecoverCommand.run(Arguments(words), drivesSimulation: true) == .usageError)
    }
}
