// Test kind: process — runs the built `hil` on bond stores.
import Foundation
import HCIPackets
import SMP
import Testing
import TestSupport

/// What the bond store's command tests share: `hil` run to completion, the secure rig's accessories
/// (HIL-Lock: passkey 123456, HIL-Sensor: Just Works), a store made by a first pairing, bonds to import.
enum BondStoreCommands {
    static let rig = repositoryRoot.appendingPathComponent("rigs/simulated-secure.json").path
    static let lock = ["--name", "HIL-Lock", "--passkey", "123456"]

    typealias Run = (status: Int32?, stdout: String, stderr: String)

    static func hil(_ arguments: [String]) async throws -> Run {
        let ran = await runProgramCapturing(try ChildProgram.hilBinary(), arguments)
        return (ran.termination?.exitStatus, ran.stdout, ran.stderr)
    }

    /// The `index`-th bond of `writer`: every (writer, index) a different peer.
    static func bond(writer: Int, index: Int) -> Bond {
        Bond(peerAddress: BDAddress(0xC0_00_00_00_00_00 | UInt64(writer) << 16 | UInt64(index)), peerAddressType: .random,
             longTermKey: LongTermKey(key: Array(repeating: UInt8(writer), count: 16)), localLongTermKey: nil,
             keySize: 16, authenticated: false, secureConnections: true, method: "just-works")
    }

    /// A store whose bond file holds HIL-Sensor's bond, made by a first `hil pair`: the directory, the
    /// file and its bytes. The caller removes the directory.
    static func storeWithOneBond() async throws -> (URL, String, Data) {
        let bonds = try TemporaryDirectory.make("hil-bonds")
        let paired = try await hil(["pair", "sim:central", "--rig", rig, "--name", "HIL-Sensor", "--bonds", bonds.path])
        #expect(paired.status == 0, "stderr: \(paired.stderr)")
        let file = bonds.appendingPathComponent("sim_central.json").path
        return (bonds, file, try Data(contentsOf: URL(fileURLWithPath: file)))
    }
}
