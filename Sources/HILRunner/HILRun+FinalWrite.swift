import Foundation
import HILResults

/// The last write of a run's results, which must say why the run is short even on a full disk.
extension HILRun {
    /// Writes the run's final results through `gate`. When that fails (a full disk), the failure becomes a
    /// problem of the run and the results are written again after giving back the space `reserve` set aside;
    /// if junit.xml still cannot be written, results.json and report.html (written while the run went on,
    /// longer than junit.xml) are removed to make room for it. The assembly as written.
    static func writeFinal(_ assembly: Assembly, to layout: ResultsLayout, gate: ResultsGate, reserve: ResultsReserve?) -> Assembly {
        var assembly = assembly
        do {
            try gate.write(assembly, to: layout)
            return assembly
        } catch {
            let freed = reserve?.release() ?? false
            let room = freed ? " (written again after giving back the space set aside for them)" : ""
            assembly.problems.append(.init("cannot write the results: \(error)\(room)", outcome: .infrastructureError))
        }
        do { try gate.write(assembly, to: layout) } catch where error.file == layout.junit.path {
            for url in [layout.resultsJSON, layout.report] { try? FileManager.default.removeItem(at: url) }
            try? gate.write(assembly, to: layout)
        } catch {}
        return assembly
    }
}
