import BenchOperations
import DeviceControl
import Foundation

/// `hil doctor [--json]`: what stands between this machine and a working bench, with the fix for each.
/// Exit 0 when nothing blocks the bench (warnings allowed), 2 when something does.
enum DoctorCommand {
    static let usage = "usage: hil doctor [--json]"

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let json = arguments.flag("json")
        do { try arguments.finish() } catch { return Diagnostics.usageError("doctor", error) }
        var hubs: [DoctorEnvironment.HubFact]?
        var problem: String?
        do {
            let topology = try await TopologyReader().read()
            hubs = topology.hubs.map { hub in
                DoctorEnvironment.HubFact(location: hub.location.description, id: hub.id.description,
                                          switching: hub.hub?.switchingMode?.rawValue ?? "unknown", ports: hub.hub?.descriptor?.portCount ?? 0)
            }
            if !topology.problems.isEmpty { problem = topology.problems.joined(separator: "; ") }
        } catch {
            problem = "\(error)"
        }
        let findings = Doctor.examine(.live(hubs: hubs, topologyProblem: problem))
        let broken = Doctor.benchCannotWork(findings)
        if json {
            print(JSONOutput.text(findings))
        } else {
            for finding in findings { print(finding) }
            let counts = [DoctorFinding.Severity.error, .warning].map { severity in "\(findings.filter { $0.severity == severity }.count) \(severity.rawValue)(s)" }
            print(broken ? "doctor: the bench cannot work: \(counts.joined(separator: ", "))" : "doctor: nothing blocks the bench: \(counts.joined(separator: ", "))")
        }
        return broken ? .infrastructureError : .success
    }
}
