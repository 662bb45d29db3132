import Foundation
@testable import HCITransports
@testable import HostCore
@testable import Roles
@testable import Rigs
import Simulation
import Testing
import TestSupport

/// A power cut while connected, captured in the Linux monitor format as a test case captures it: the
/// central as controller 0 (through `CapturingTransport`), the simulated accessory's own controller as
/// controller 1 (its tap), and notes — read back by tshark, which shows both sides of the link and the power
/// cycle in order.
///
/// A process test: it runs tshark. The bench itself runs on virtual time (a drive of its clock); the minute
/// bounds tshark's start-up and dissection, which take seconds on a loaded 2-core machine.
@Suite(.tags(.process), .timeLimit(.minutes(1))) struct SimulatedBenchCaptureTests {
    @Test func aPowerCycleWhileConnectedShowsOnBothSides() async throws {
        try #require(Tshark.path != nil, "\(Tshark.missing)")
        let rig = try Rig.load(path: repositoryRoot.appendingPathComponent("rigs/simulated.json").path)
        let runtime = try SimulatedRigRuntime(rig: rig)
        let directory = try TemporaryDirectory.make("hil-bench-capture")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("case.btsnoop").path
        let thermometer = try #require(rig.accessory(named: "thermometer"))
        let accessory = try #require(runtime.accessories["thermometer"])
        let powerSwitch = try #require(runtime.powerSwitch(for: "thermometer"))
        let clock = runtime.world.air.clock
        let capture = try MonitorCapture(path: path, clock: clock)
        try await clock.drive { () async throws -> Void in
            try await runtime.powerOnAll()
            capture.note("hil: test begin")
            accessory.controller.tap(into: capture.controller(1, name: "thermo"))
            let transport = CapturingTransport(try runtime.openTransport(named: "central"),
                                               destination: .controller(capture.controller(0, name: "central"), bus: .virtual))
            let central = LEDevice(host: try HCIHost(transport: transport))
            try await central.start()
            let link = try await central.connect(matching: thermometer.match, scanTimeout: .seconds(2), parameters: rig.connectionParameters)
            _ = try await link.gatt.discoverAll()
            capture.note("hil: power: power off")
            _ = try await powerSwitch.off()
            _ = try await link.waitForDisconnection(timeout: .seconds(10))
            capture.note("hil: power: power on")
            _ = try await powerSwitch.on()
            await central.close()
            accessory.controller.tap(into: nil)
            capture.note("hil: test end")
        }
        await runtime.shutdown()
        capture.writer.close()

        let rows = try await Tshark.fields(path, ["hci_mon.adapter_id", "hci_mon.opcode", "hci_mon.system_note", "bthci_evt.reason",
                                                  "bthci_evt.role", "_ws.col.Info"])
        func first(_ predicate: ([String]) -> Bool) -> Int? { rows.firstIndex { $0.count == 6 && predicate($0) } }
        let connectedPeer = first { $0[0] == "1" && $0[5].contains("Connection Complete") }
        let connectedCentral = first { $0[0] == "0" && $0[5].contains("Connection Complete") }
        let peerATT = first { $0[0] == "1" && $0[5].contains("Read By Group Type Request") }
        let cut = first { $0[2] == "hil: power: power off" }
        let peerGone = first { $0[0] == "1" && $0[1] == "1" }
        let linkLost = first { $0[0] == "0" && $0[5].contains("Disconnect Complete") }
        let restored = first { $0[2] == "hil: power: power on" }
        let peerBack = rows.indices.first { index in (peerGone.map { index > $0 } ?? false) && rows[index].count == 6 && rows[index][0] == "1" && rows[index][1] == "0" }
        let peerReset = rows.indices.first { index in (peerBack.map { index > $0 } ?? false) && rows[index].count == 6 && rows[index][0] == "1" && rows[index][5].contains("Sent Reset") }
        let summary = rows.map { $0.joined(separator: " | ") }.joined(separator: "\n")
        try #require(connectedPeer != nil && connectedCentral != nil && peerATT != nil && cut != nil && peerGone != nil && linkLost != nil
                     && restored != nil && peerBack != nil && peerReset != nil, "\(summary)")
        // The accessory's controller saw the link as peripheral (role 1), the central's as central (role 0).
        if let connectedPeer, let connectedCentral {
            #expect(rows[connectedPeer][4] == "1" || rows[connectedPeer][4] == "0x01", "\(rows[connectedPeer])")
            #expect(rows[connectedCentral][4] == "0" || rows[connectedCentral][4] == "0x00", "\(rows[connectedCentral])")
        }
        // Cut, then the accessory's controller goes away, then the central learns the link dropped: 0x08.
        if let cut, let peerGone, let linkLost, let restored, let peerBack, let peerReset {
            #expect(cut < peerGone && peerGone < linkLost && linkLost < restored && restored <= peerBack + 1 && peerBack < peerReset)
            #expect(rows[linkLost][3] == "0x08" || rows[linkLost][3] == "8", "\(rows[linkLost])")
        }
    }
}
