// Test kind: peer — labgrid's coordinator and exporter, real processes.
import Support
import DeviceControl
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// labgrid 26 (PyPI `labgrid`, in the .venv scripts/peers/venv makes), the lab engine `hil lab export`
/// writes for: its Python for scripts/checks/check-labgrid-config (labgrid's own reading of an exporter
/// configuration), and its coordinator, exporter and client programs.
public enum LabgridPeer {
    public static let python = repositoryRoot.appendingPathComponent(".venv/bin/python").path

    /// `.venv/bin/NAME`: `labgrid-coordinator`, `labgrid-exporter`, `labgrid-client`.
    public static func program(_ name: String) -> String {
        repositoryRoot.appendingPathComponent(".venv/bin/\(name)").path
    }

    /// Makes sure labgrid imports in the venv, running scripts/peers/venv (which pins it) when it does not.
    public static func ensureInstalled() async throws {
        if FileManager.default.isExecutableFile(atPath: python),
           (try? await ChildProcess.run([python, "-c", "import labgrid"], deadline: .seconds(60)))?.termination.succeeded == true {
            return
        }
        let made = try await ChildProcess.run([repositoryRoot.appendingPathComponent("scripts/peers/venv").path], deadline: .seconds(540))
        guard made.termination.succeeded else {
            throw PeerError("labgrid is not in .venv and scripts/peers/venv failed (\(made.termination)): \(made.lastLine)")
        }
    }

    /// What labgrid reads in the exporter configuration at `path` (scripts/checks/check-labgrid-config: PyYAML and
    /// labgrid's Jinja2-then-YAML reading agree, every class exists and takes its parameters, labgrid-client's
    /// pattern picks each resource): group → resource name → its class and parameters as labgrid holds them.
    public static func read(configAt path: String, exporter: String = "exporter") async throws -> [String: [String: LabgridResourceReading]] {
        try await ensureInstalled()
        let script = repositoryRoot.appendingPathComponent("scripts/checks/check-labgrid-config").path
        let ran = try await ChildProcess.run([python, script, path, exporter], deadline: .seconds(120))
        guard ran.termination.succeeded else { throw PeerError("labgrid refuses \(path) (\(ran.termination)): \(ran.lastLine)") }
        return try JSONDecoder().decode([String: [String: LabgridResourceReading]].self, from: Data(ran.stdout.utf8))
    }

    /// A TCP port on 127.0.0.1 nothing listens on right now (bound and released: another process may
    /// take it before the caller does, so a caller retries on a port in use).
    public static func freeLoopbackPort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PeerError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw PeerError("bind 127.0.0.1:0: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw PeerError("getsockname: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// One resource as labgrid read it: its class and the parameters the file gave, as the instantiated
/// resource holds them (a USB resource's `match` with labgrid's own entries added).
public struct LabgridResourceReading: Decodable, Equatable, Sendable {
    public enum Parameter: Decodable, Equatable, Sendable {
        case text(String)
        case integer(Int)
        case mapping([String: String])

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                self = .integer(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .mapping(try container.decode([String: String].self))
            }
        }
    }

    public var cls: String
    public var params: [String: Parameter]
}
