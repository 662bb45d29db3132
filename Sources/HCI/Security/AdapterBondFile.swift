// One adapter's bonds and identity in a JSON file.
import BluetoothCrypto
import Foundation

/// The bonds and identity of one adapter, kept in `<directory>/<adapter>.json` (readable JSON, mode 0600,
/// replaced atomically by a rename so a crash never leaves half a file). A file that does not parse is an
/// error that names it, and is never overwritten: the other bonds in it are not lost.
public actor AdapterBondFile: BondStorage {
    /// The file's path.
    public nonisolated let path: String
    /// The adapter it belongs to (its moniker, e.g. `usb:0A12:0001/1`, `sim:central`).
    public nonisolated let adapter: String
    var contents: Contents

    /// What the file holds.
    struct Contents: Codable {
        var adapter: String
        var identity: LocalIdentity
        var bonds: [Bond]
    }

    /// Opens (or creates, with a fresh random static identity address and IRK) the file of `adapter` in `directory`.
    public init(directory: String, adapter: String) throws(SecurityError) {
        let path = (directory as NSString).appendingPathComponent(Self.fileName(for: adapter))
        self.path = path
        self.adapter = adapter
        if FileManager.default.fileExists(atPath: path) {
            contents = try Self.read(path)
        } else {
            contents = Contents(adapter: adapter, identity: try LocalIdentity.randomStatic(), bonds: [])
            try Self.write(contents, to: path, directory: directory)
        }
    }

    /// Opens an existing bond file.
    public init(opening path: String) throws(SecurityError) {
        let contents = try Self.read(path)
        self.path = path
        adapter = contents.adapter
        self.contents = contents
    }

    /// The file name for an adapter moniker: its letters, digits, dots and dashes, the rest as `_`.
    public static func fileName(for adapter: String) -> String {
        String(adapter.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" }) + ".json"
    }

    /// Our identity on this adapter: a random static address and an IRK, the same on every run.
    public var identity: LocalIdentity { contents.identity }

    public func bonds() -> [Bond] { contents.bonds }

    public func save(_ bond: Bond) throws(SecurityError) {
        var updated = contents
        updated.bonds.removeAll { $0.peerAddress == bond.peerAddress }
        updated.bonds.append(bond)
        try Self.write(updated, to: path, directory: (path as NSString).deletingLastPathComponent)
        contents = updated
    }

    public func forget(peer: BDAddress) throws(SecurityError) -> Bool {
        var updated = contents
        updated.bonds.removeAll { $0.peerAddress == peer }
        guard updated.bonds.count != contents.bonds.count else { return false }
        try Self.write(updated, to: path, directory: (path as NSString).deletingLastPathComponent)
        contents = updated
        return true
    }

    static func read(_ path: String) throws(SecurityError) -> Contents {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return try JSONDecoder().decode(Contents.self, from: data)
        } catch let error as DecodingError {
            throw .bondStore("\(path): not a bond file: \(describe(error))")
        } catch {
            throw .bondStore("\(path): cannot read: \(error.localizedDescription)")
        }
    }

    /// Writes a temporary file beside `path` with mode 0600 and renames it over `path`.
    static func write(_ contents: Contents, to path: String, directory: String) throws(SecurityError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let data = try encoder.encode(contents) + Data("\n".utf8)
            let temporary = path + ".tmp-\(getpid())"
            guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw SecurityError.bondStore("\(temporary): cannot create")
            }
            if rename(temporary, path) != 0 {
                let code = errno
                unlink(temporary)
                throw SecurityError.bondStore("\(path): rename failed: \(String(cString: strerror(code)))")
            }
        } catch let error as SecurityError {
            throw error
        } catch {
            throw .bondStore("\(path): cannot write: \(error.localizedDescription)")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            let at = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            let what: String = switch error {
            case .keyNotFound(let key, _): "missing \"\(key.stringValue)\""
            default: context.debugDescription
            }
            return at.isEmpty ? what : "\(at.hasPrefix(".") ? String(at.dropFirst()) : at): \(what)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// A directory of adapter bond files: `--bonds DIR`, else `HIL_BONDS`, else `~/.local/share/hil/bonds`.
public struct BondDirectory: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The directory a command uses when none is given.
    public static func resolved(_ given: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> BondDirectory {
        if let given, !given.isEmpty { return BondDirectory(path: given) }
        if let variable = environment["HIL_BONDS"], !variable.isEmpty { return BondDirectory(path: variable) }
        let home = environment["HOME"] ?? NSHomeDirectory()
        // The XDG Base Directory Specification: unset, empty or relative means $HOME/.local/share.
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (home as NSString).appendingPathComponent(".local/share")
        return BondDirectory(path: (data as NSString).appendingPathComponent("hil/bonds"))
    }

    /// The bond file of `adapter`.
    public func file(for adapter: String) throws(SecurityError) -> AdapterBondFile {
        try AdapterBondFile(directory: path, adapter: adapter)
    }

    /// Every adapter file in the directory, each read, or the error that names it.
    public func files() -> [Result<AdapterBondFile, SecurityError>] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { name in
            let file = (path as NSString).appendingPathComponent(name)
            do throws(SecurityError) {
                return .success(try AdapterBondFile(opening: file))
            } catch {
                return .failure(error)
            }
        }
    }
}
