// Test kind: process — Wireshark's tshark, a child process.
import Foundation

/// Wireshark's tshark (Debian package tshark, installed by scripts/install-deps): a reading of our captures
/// by a decoder we did not write.
public enum Tshark {
    /// The executable, or nil when it is not installed.
    public static var path: String? {
        ["/usr/bin/tshark", "/usr/local/bin/tshark"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Why a test cannot run without it.
    public static let missing = "tshark is not installed: scripts/test installs it (Debian package tshark)"

    /// The values of `fields` for each record of `capture` that `filter` (a Wireshark display filter)
    /// keeps, one row per record, in capture order. Throws when tshark fails, with what it said.
    public static func fields(_ capture: String, _ fields: [String], filter: String? = nil) async throws -> [[String]] {
        guard let path else { throw PeerError(missing) }
        var arguments = ["-r", capture, "-T", "fields", "-E", "separator=\t", "-E", "occurrence=a", "-E", "aggregator=,"]
        if let filter { arguments += ["-Y", filter] }
        for field in fields { arguments += ["-e", field] }
        let ran = await runProgramCapturing(path, arguments)
        guard ran.termination?.exitStatus == 0 else {
            throw PeerError("tshark \(arguments.joined(separator: " ")) failed: \(ran.stderr.prefix(400))")
        }
        return ran.stdout.split(separator: "\n", omittingEmptySubsequences: true).map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }
}
