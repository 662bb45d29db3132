import Foundation
import Testing
import TestSupport

/// `hil scan` says what it does, streams each advertiser as it is found, and on Ctrl-C prints what it
/// found and exits 130 (run as the binary on the default simulated bench).
@Suite(.tags(.process)) struct ScanCommandTests {
    @Test func streamsWhatItFindsAndAnInterruptPrintsItAndExits130() async throws {
        let scan = try ChildProgram(try ChildProgram.hilBinary(), ["scan", "sim:central", "--timeout", "60", "--all"], name: "hil scan")
        // 10 s for each: the process's start-up and the simulated bench's boot on a loaded 2-core machine, then
        // the thermometer's advertising (100 ms) heard on the bench's time at the rate of real time.
        let first = try #require(await scan.line(within: .seconds(10)), "nothing printed: \(scan.standardError)")
        #expect(first.text.hasPrefix("scanning sim:central for up to 60.00 s (active)"), "\(first.text)")
        let found = await scan.line(within: .seconds(10)) { $0.hasPrefix("found ") && $0.contains("HIL-Thermo") }
        #expect(found != nil, "no streamed line for HIL-Thermo: \(scan.standardOutput)")
        // 10 s to print the table and exit after SIGINT, on a loaded machine.
        let status = await scan.signal(SIGINT, waitingUpTo: .seconds(10))
        #expect(status == 130, "exit \(String(describing: status)); stderr: \(scan.standardError)")
        await scan.drain()
        #expect(scan.standardOutput.contains { $0.hasPrefix("SIGINT: stopping the scan") }, "\(scan.standardOutput)")
        #expect(scan.standardOutput.contains { $0.hasPrefix("ADDRESS") }, "no table after the interrupt: \(scan.standardOutput)")
        #expect(scan.standardOutput.contains { $0.hasPrefix("C0:48:49:4C:00:02") && $0.contains("HIL-Thermo") }, "\(scan.standardOutput)")
    }

    @Test func jsonKeepsStandardOutputForTheJSON() async throws {
        let ran = await runProgramCapturing(try ChildProgram.hilBinary(), ["scan", "sim:central", "--timeout", "0.5", "--json"])
        #expect(ran.termination?.exitStatus == 0, "\(ran.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(ran.stdout.utf8)) as? [String: Any]
        #expect((object?["entries"] as? [[String: Any]])?.isEmpty == false, "\(ran.stdout)")
        #expect(ran.stderr.contains("scanning sim:central"), "\(ran.stderr)")
    }
}
