import Foundation
import Testing
import TestSupport

extension RigArgumentTests {
    /// The good rig of `infoAndScanRefuseABadRigWhateverTheMoniker` gets a scan going: as the binary, because the
    /// CLI runs the rig's simulated bench at the rate of real time (a 0.2 s scan on the wall clock).
    @Test(.tags(.process)) func theGoodRigScans() async throws {
        let good = repositoryRoot.appendingPathComponent("rigs/simulated.json").path
        // 60 s: the process's start-up, the rig lock and the bench's boot on a loaded 2-core machine, then 0.2 s of scan.
        let ran = try await runToCompletion(try ChildProgram.hilBinary(), ["scan", "sim:central", "--rig", good, "--timeout", "0.2"],
                                            timeout: .seconds(60))
        #expect(ran.status == 0, "\(ran.error)")
    }
}
