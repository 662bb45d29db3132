@testable import BenchOperations
import Foundation
import Rigs
import Testing
import TestSupport

/// `hil lab export`'s mapping where no labgrid is needed: what cannot be exported, and group names labgrid
/// could not match. (Read back by labgrid itself: `LabgridExportReadBackTests`.)
@Suite struct LabgridExportTests {
    typealias Reading = LabgridResourceReading

    static func rig(adapter: String = "usb:2fe3:000b/HIL01") throws -> Rig {
        try Rig.parse(Data(SampleLabRig.json(adapter: adapter).utf8))
    }

    /// A udev `match` as labgrid holds it (labgrid adds its own entries, such as SUBSYSTEM).
    static func match(_ reading: Reading?) -> [String: String] {
        if case .mapping(let match)? = reading?.params["match"] { return match }
        return [:]
    }

    @Test(arguments: ["usb:0", "usb:2fe3:000b#1", "hci-socket:0", "unix:/tmp/bt-server-le", "tcp-client:127.0.0.1:6402"])
    func anAdapterNoUdevMatchCanHoldIsANote(moniker: String) throws {
        let export = try LabgridExport(rig: try Self.rig(adapter: moniker))
        #expect(!export.resources.contains { $0.name == "adapter" })
        #expect(export.notExported.first?.part == "adapter \(moniker)", "\(export.notExported)")
        #expect(LabgridYAML.render(export).contains("## not exported: adapter \(moniker): "))
    }

    @Test func aSimulatedBenchHasNothingToExport() throws {
        let rig = try Rig.load(path: repositoryRoot.appendingPathComponent("rigs/simulated.json").path)
        #expect {
            _ = try LabgridExport(rig: rig)
        } throws: { error in
            let text = "\(error)"
            return text.contains("has nothing labgrid can export: adapter sim:central (a simulated controller") && !text.contains("\n")
        }
    }

    @Test(arguments: ["a/b", "bench 1", "", "bench*"])
    func aGroupLabgridCannotMatchIsRefused(group: String) throws {
        #expect(throws: LabgridExportError.self) { _ = try LabgridExport(rig: try Self.rig(), group: group) }
    }
}
