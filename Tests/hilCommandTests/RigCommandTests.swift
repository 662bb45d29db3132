import Foundation
import Testing
import TestSupport

/// `hil rig schema` prints exactly the schema file editors use, and `hil rig check` says one line per file:
/// ok on stdout, the reader's one-line error on stderr, exit 3 when a file is not a usable rig.
@Suite(.tags(.process)) struct RigCommandTests {
    static func hil(_ arguments: [String]) async throws -> (status: Int32?, stdout: String, stderr: String) {
        let ran = await runProgramCapturing(try ChildProgram.hilBinary(), arguments)
        return (ran.termination?.exitStatus, ran.stdout, ran.stderr)
    }

    @Test func schemaPrintsTheFileInRigsByteForByte() async throws {
        let ran = try await Self.hil(["rig", "schema"])
        #expect(ran.status == 0, "\(ran.stderr)")
        let file = try Data(contentsOf: repositoryRoot.appendingPathComponent("rigs/rig.schema.json"))
        #expect(Data(ran.stdout.utf8) == file, "hil rig schema prints \(ran.stdout.utf8.count) bytes, rigs/rig.schema.json has \(file.count)")
        #expect(ran.stderr.isEmpty)
    }

    @Test func checkSaysOneLinePerFile() async throws {
        let good = repositoryRoot.appendingPathComponent("rigs/simulated.json").path
        let lab = repositoryRoot.appendingPathComponent("rigs/lab-bench-example.json").path
        let expected = repositoryRoot.appendingPathComponent("rigs/checks/simulated-faults.expected.json").path
        let missing = "/nonexistent/rig.json"
        let allGood = try await Self.hil(["rig", "check", good, lab])
        #expect(allGood.status == 0, "\(allGood.stderr)")
        #expect(allGood.stdout.split(separator: "\n").map { String($0.prefix { $0 != ":" }) } == [good, lab], "\(allGood.stdout)")
        #expect(allGood.stdout.contains("ok (simulated: adapter sim:central, 2 accessories"), "\(allGood.stdout)")
        let mixed = try await Self.hil(["rig", "check", good, expected, missing])
        #expect(mixed.status == 3)
        #expect(mixed.stdout.split(separator: "\n").count == 1, "\(mixed.stdout)")
        #expect(mixed.stderr.split(separator: "\n") == [
            "hil rig check: rig file \(expected): comment: unknown key (known: $schema, accessories, adapter, budgets, description, labgrid, localDisconnectReasons, meters, name, peerSeesAdapterReset, powerSwitches, remoteLossReasons, reportsLinkLoss, simulation)",
            "hil rig check: rig file \(missing): cannot read it (no such file)",
        ], "\(mixed.stderr)")
    }

    @Test(arguments: [["rig"], ["rig", "check"], ["rig", "schema", "extra"], ["rig", "validate", "x.json"]])
    func aWrongCommandLineIsOneLine(arguments: [String]) async throws {
        let ran = try await Self.hil(arguments)
        #expect(ran.status == 3)
        #expect(ran.stderr.split(separator: "\n").count == 1 && ran.stderr.hasSuffix("see 'hil rig --help'\n"), "\(ran.stderr)")
    }
}
