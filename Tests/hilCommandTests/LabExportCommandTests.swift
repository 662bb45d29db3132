import Foundation
import Testing
import TestSupport

/// `hil lab export`: the exporter configuration on stdout, read back by labgrid (scripts/checks/check-labgrid-config),
/// and every refusal one line on stderr with exit 3.
@Suite(.tags(.process)) struct LabExportCommandTests {
    static func hil(_ arguments: [String]) async throws -> (status: Int32?, stdout: String, stderr: String) {
        try await HelpAndVersionTests.hil(arguments)
    }

    /// labgrid's own reader (a Python peer, scripts/checks/check-labgrid-config) reads the file back.
    @Test(.tags(.peer)) func theLabBenchExampleIsWrittenForLabgrid() async throws {
        let ran = try await Self.hil(["lab", "export", "rigs/lab-bench-example.json", "--group", "bench-1"])
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.stderr.isEmpty, "\(ran.stderr)")
        let directory = try TemporaryDirectory.make("hil-lab-export")
        defer { TemporaryDirectory.remove(directory) }
        let file = directory.appendingPathComponent("bench-1.yaml")
        try ran.stdout.write(to: file, atomically: true, encoding: .utf8)
        let groups = try await LabgridPeer.read(configAt: file.path)
        #expect(Array(groups.keys) == ["bench-1"])
        #expect(groups["bench-1"]?["thermometer-power"]?.cls == "USBPowerPort")
        #expect(groups["bench-1"]?["heart-rate-power"]?.params == ["serial": .text("YK12345"), "index": .text("1")])
        let again = try await Self.hil(["lab", "export", "rigs/lab-bench-example.json", "--group", "bench-1"])
        #expect(again.stdout == ran.stdout, "the same rig gives the same file")
    }

    @Test func aSimulatedBenchIsOneLineAndExit3() async throws {
        let ran = try await Self.hil(["lab", "export", "rigs/simulated.json"])
        #expect(ran.status == 3)
        #expect(ran.stdout.isEmpty)
        #expect(ran.stderr.hasPrefix("hil lab export: rig rigs/simulated.json has nothing labgrid can export: adapter sim:central"), "\(ran.stderr)")
        #expect(ran.stderr.split(separator: "\n").count == 1, "\(ran.stderr)")
    }

    @Test func aBadRigIsItsOneLineRigErrorAndExit3() async throws {
        let directory = try TemporaryDirectory.make("hil-lab-export")
        defer { TemporaryDirectory.remove(directory) }
        let file = directory.appendingPathComponent("bad.json")
        try SampleLabRig.json().replacingOccurrences(of: "\"kind\": \"ykush\"", with: "\"kind\": \"ykush\", \"serail\": \"x\"")
            .write(to: file, atomically: true, encoding: .utf8)
        for arguments in [["lab", "export", file.path], ["lab", "export", directory.appendingPathComponent("absent.json").path]] {
            let ran = try await Self.hil(arguments)
            #expect(ran.status == 3, "\(arguments)")
            #expect(ran.stdout.isEmpty)
            #expect(ran.stderr.hasPrefix("hil lab export: rig file \(arguments[2]): "), "\(ran.stderr)")
            #expect(ran.stderr.split(separator: "\n").count == 1, "\(ran.stderr)")
        }
    }

    @Test(arguments: [["lab", "export"], ["lab", "export", "rigs/lab-bench-example.json", "--group", "a/b"], ["lab", "frobnicate"],
                      ["lab", "export", "rigs/lab-bench-example.json", "extra"]])
    func aWrongCommandLineIsOneLineAndExit3(arguments: [String]) async throws {
        let ran = try await Self.hil(arguments)
        #expect(ran.status == 3, "\(arguments)")
        #expect(ran.stdout.isEmpty)
        #expect(ran.stderr.hasPrefix("hil lab"), "\(ran.stderr)")
        #expect(ran.stderr.split(separator: "\n").count == 1, "\(ran.stderr)")
    }
}
