@testable import SocketServing
@testable import Support
@testable import AirServer
import Foundation
import Testing
import TestSupport

/// `hil sim power`'s client (`SimServeControlClient`) against a served air on real time, as the CLI uses
/// them: a server of ours on a control socket that other processes use, and a client whose deadline is the
/// wall clock's (a blocking poll(2)). The protocol itself is `ControlProtocolTests`', on virtual time.
@Suite(.tags(.peer)) struct SimServeControlClientTests {
    @Test func eachRequestGetsItsOneAnswerLine() async throws {
        let rig = try ServedAirFixture.rig()
        let directory = URL(fileURLWithPath: "/tmp/hil-ctl-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ctl").path
        let server = try await SimulatedAirServer.start(rig: rig, options: .init(listen: [], control: .unix(path: path), log: { _ in }))
        let control = ServeAddress.unix(path: path)
        // 5 s per answer: a power-on boots the accessory's firmware (50 ms of the air's real time), and the
        // request crosses two threads of a loaded 2-core machine; the CLI's own default is 70 s.
        func ask(_ line: String) async throws -> String {
            try await offPool { try SimServeControlClient.request(line, to: control, timeout: .seconds(5)) }
        }
        #expect(try await ask("power toaster on").hasPrefix("error: no simulated accessory named 'toaster'"))
        #expect(try await ask("power heart-rate off") == "ok heart-rate off")
        #expect(server.runtime.accessories["heart-rate"]?.controller.isPoweredOn == false, "the answer came after the power was cut")
        #expect(try await ask("power heart-rate on") == "ok heart-rate on")
        #expect(await server.runtime.accessories["heart-rate"]?.isRunning == true, "the answer came after the firmware booted")
        await server.shutdown()
        #expect(!FileManager.default.fileExists(atPath: path), "the control socket's file is removed")
    }
}
