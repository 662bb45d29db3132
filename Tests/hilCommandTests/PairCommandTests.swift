import Foundation
import Testing
import TestSupport

/// `hil pair`, `hil bonds` and `hil connect` with a stored bond, run as the real binary against
/// rigs/simulated-secure.json's accessories (HIL-Lock displays passkey 123456; HIL-Badge compares numbers;
/// HIL-Sensor pairs Just Works with legacy pairing).
@Suite(.tags(.process)) struct PairCommandTests {
    static let rig = repositoryRoot.appendingPathComponent("rigs/simulated-secure.json").path

    static func hil(_ arguments: [String]) async throws -> (status: Int32?, stdout: String, stderr: String) {
        let ran = await runProgramCapturing(try ChildProgram.hilBinary(), arguments)
        return (ran.termination?.exitStatus, ran.stdout, ran.stderr)
    }

    @Test func pairStoresABondThatBondsListShowsAndForgetRemoves() async throws {
        let bonds = try TemporaryDirectory.make("hil-bonds")
        defer { TemporaryDirectory.remove(bonds) }
        let paired = try await Self.hil(["pair", "sim:central", "--rig", Self.rig, "--name", "HIL-Lock", "--passkey", "123456", "--bonds", bonds.path])
        #expect(paired.status == 0, "stderr: \(paired.stderr)")
        #expect(paired.stdout.contains("Passkey Entry"), "\(paired.stdout)")
        #expect(paired.stdout.contains("LE Secure Connections"), "\(paired.stdout)")
        #expect(paired.stdout.contains("bonded     C0:48:49:4C:00:21"), "\(paired.stdout)")
        let file = bonds.appendingPathComponent("sim_central.json").path
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let listed = try await Self.hil(["bonds", "list", "--bonds", bonds.path, "--json"])
        #expect(listed.status == 0, "stderr: \(listed.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["peer"] as? String == "C0:48:49:4C:00:21")
        #expect(entries.first?["method"] as? String == "passkey")
        #expect(entries.first?["authenticated"] as? Bool == true)

        let forgot = try await Self.hil(["bonds", "forget", "C0:48:49:4C:00:21", "--bonds", bonds.path])
        #expect(forgot.status == 0, "stderr: \(forgot.stderr)")
        let again = try await Self.hil(["bonds", "forget", "C0:48:49:4C:00:21", "--bonds", bonds.path])
        #expect(again.status == 1)
        #expect(again.stderr.contains("no bond with C0:48:49:4C:00:21"), "\(again.stderr)")
    }

    @Test func aWrongPasskeyFailsWithItsSMPReason() async throws {
        let bonds = try TemporaryDirectory.make("hil-bonds")
        defer { TemporaryDirectory.remove(bonds) }
        let ran = try await Self.hil(["pair", "sim:central", "--rig", Self.rig, "--name", "HIL-Lock", "--passkey", "654321", "--bonds", bonds.path])
        #expect(ran.status == 1)
        #expect(ran.stderr.contains("0x04 Confirm Value Failed"), "\(ran.stderr)")
        #expect(ran.stderr.split(separator: "\n").count == 1, "one line: \(ran.stderr)")
    }

    @Test func numericComparisonAndRejectingIt() async throws {
        let bonds = try TemporaryDirectory.make("hil-bonds")
        defer { TemporaryDirectory.remove(bonds) }
        let yes = try await Self.hil(["pair", "sim:central", "--rig", Self.rig, "--name", "HIL-Badge", "--method", "numeric-comparison",
                                      "--confirm", "yes", "--bonds", bonds.path])
        #expect(yes.status == 0, "stderr: \(yes.stderr)")
        #expect(yes.stdout.contains("compare") && yes.stdout.contains("confirmed"), "\(yes.stdout)")
        let no = try await Self.hil(["pair", "sim:central", "--rig", Self.rig, "--name", "HIL-Badge", "--method", "numeric-comparison",
                                     "--confirm", "no", "--bonds", bonds.path])
        #expect(no.status == 1)
        #expect(no.stderr.contains("0x0C Numeric Comparison Failed"), "\(no.stderr)")
    }

    @Test func aCorruptBondFileIsAOneLineErrorAndIsKept() async throws {
        let bonds = try TemporaryDirectory.make("hil-bonds")
        defer { TemporaryDirectory.remove(bonds) }
        let file = bonds.appendingPathComponent("sim_central.json")
        let corrupt = Data("{\"adapter\": \"sim:central\", \"identity\": {\"address\": \"C1:02:03:04:05:06\", \"type\": \"random\"".utf8)
        try corrupt.write(to: file)
        let ran = try await Self.hil(["pair", "sim:central", "--rig", Self.rig, "--name", "HIL-Sensor", "--bonds", bonds.path])
        #expect(ran.status == 3)
        #expect(ran.stderr.contains(file.path), "\(ran.stderr)")
        #expect(ran.stderr.split(separator: "\n").count == 1, "one line: \(ran.stderr)")
        #expect(try Data(contentsOf: file) == corrupt, "the corrupt file was changed")
        let listed = try await Self.hil(["bonds", "list", "--bonds", bonds.path])
        #expect(listed.status == 3)
        #expect(listed.stderr.contains(file.path), "\(listed.stderr)")
    }

    @Test func badSecurityArgumentsAreUsageErrors() async throws {
        for arguments in [["pair", "sim:central", "--name", "X", "--passkey", "1234567"],
                          ["pair", "sim:central", "--name", "X", "--method", "telepathy"],
                          ["pair", "sim:central", "--name", "X", "--method", "passkey"],
                          ["pair", "sim:central", "--name", "X", "--confirm", "maybe"],
                          ["advertise", "sim:central", "--name", "X", "--security", "paranoid"],
                          ["bonds", "forget", "not-an-address"],
                          ["bonds", "frobnicate"]] {
            let ran = try await Self.hil(arguments)
            #expect(ran.status == 3, "\(arguments): \(ran.stderr)")
        }
    }
}
