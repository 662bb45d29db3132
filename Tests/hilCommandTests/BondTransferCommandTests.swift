import Foundation
import SMP
import Testing
import TestSupport

/// `hil bonds export` and `hil bonds import`: an adapter's bonds moved to another store, merged there by peer.
@Suite(.tags(.process)) struct BondTransferCommandTests {
    typealias Commands = BondStoreCommands

    @Test("hil bonds export prints the file; import merges it into another store, and refuses one made as another identity")
    func exportAndImport() async throws {
        let (bonds, _, _) = try await Commands.storeWithOneBond()
        defer { TemporaryDirectory.remove(bonds) }
        let scratch = try TemporaryDirectory.make("hil-bonds")
        defer { TemporaryDirectory.remove(scratch) }
        let exported = try await Commands.hil(["bonds", "export", "--adapter", "sim:central", "--bonds", bonds.path])
        #expect(exported.status == 0, "stderr: \(exported.stderr)")
        let exportFile = scratch.appendingPathComponent("exported.json")
        try Data(exported.stdout.utf8).write(to: exportFile)
        let elsewhere = scratch.appendingPathComponent("elsewhere").path
        let imported = try await Commands.hil(["bonds", "import", exportFile.path, "--bonds", elsewhere])
        #expect(imported.status == 0, "stderr: \(imported.stderr)")
        let original = try AdapterBondFile(opening: bonds.appendingPathComponent("sim_central.json").path)
        let copy = try AdapterBondFile(opening: (elsewhere as NSString).appendingPathComponent("sim_central.json"))
        #expect(await copy.bonds() == (await original.bonds()))
        #expect(await copy.identity == (await original.identity))
        // A store whose file holds another identity: the bonds would not work there.
        let other = scratch.appendingPathComponent("other").path
        _ = try await AdapterBondFile(directory: other, adapter: "sim:central")
        let refused = try await Commands.hil(["bonds", "import", exportFile.path, "--bonds", other])
        #expect(refused.status == 3, "stderr: \(refused.stderr)")
        #expect(refused.stderr.contains("they would not work there"), "\(refused.stderr)")
        #expect(try await AdapterBondFile(opening: (other as NSString).appendingPathComponent("sim_central.json")).bonds().isEmpty)
    }
}
