import Foundation
import Testing
import TestSupport

/// Every command explains itself (`hil CMD --help`, `hil help CMD`: exit 0, its own usage), a wrong command
/// line is one line that says where the usage is (exit 3), and `hil --version` answers.
@Suite(.tags(.process)) struct HelpAndVersionTests {
    static let commands = ["info", "scan", "connect", "advertise", "accessory", "pair", "bonds", "preflight", "usb", "power", "run", "report",
                           "adapters", "doctor", "recover", "sim", "rig", "serve", "lab", "firmware"]

    static func hil(_ arguments: [String]) async throws -> (status: Int32?, stdout: String, stderr: String) {
        let ran = await runProgramCapturing(try ChildProgram.hilBinary(), arguments)
        return (ran.termination?.exitStatus, ran.stdout, ran.stderr)
    }

    @Test(arguments: commands)
    func helpForEveryCommand(command: String) async throws {
        for arguments in [[command, "--help"], ["help", command]] {
            let ran = try await Self.hil(arguments)
            #expect(ran.status == 0, "\(arguments): \(ran.stderr)")
            #expect(ran.stdout.hasPrefix("usage: hil \(command)"), "\(arguments): \(ran.stdout.prefix(80))")
            #expect(ran.stderr.isEmpty, "\(arguments): \(ran.stderr)")
        }
    }

    @Test(arguments: ["info", "scan", "connect", "advertise", "accessory", "pair", "bonds", "usb", "power", "run", "report", "adapters", "doctor", "recover", "rig", "serve", "lab"])
    func aWrongCommandLineIsOneLine(command: String) async throws {
        let ran = try await Self.hil([command, "--no-such-option"])
        #expect(ran.status == 3, "\(ran.stderr)")
        let lines = ran.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(ran.stderr)")
        #expect(ran.stderr.contains("see 'hil \(command) --help'"), "\(ran.stderr)")
    }

    @Test func unknownCommandsAndVersion() async throws {
        let unknown = try await Self.hil(["frobnicate"])
        #expect(unknown.status == 3)
        #expect(unknown.stderr == "hil: unknown command 'frobnicate'; see 'hil --help'\n")
        let unknownTopic = try await Self.hil(["help", "frobnicate"])
        #expect(unknownTopic.status == 3)
        let version = try await Self.hil(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("hil ") && version.stdout.contains("(BluetoothHIL)"), "\(version.stdout)")
        let help = try await Self.hil(["help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("hil help COMMAND"))
    }
}
