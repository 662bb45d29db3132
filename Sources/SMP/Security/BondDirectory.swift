// Where the bond files live.
import Foundation

/// A directory of adapter bond files: `--bonds DIR`, else `HIL_BONDS`, else `~/.local/share/hil/bonds`.
public struct BondDirectory: Sendable {
    public let path: String
    /// How its files wait for the lock and reach the disk.
    public var options: BondStoreOptions

    public init(path: String, options: BondStoreOptions = BondStoreOptions()) {
        self.path = path
        self.options = options
    }

    /// The directory a command uses when none is given.
    public static func resolved(_ given: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> BondDirectory {
        if let given, !given.isEmpty { return BondDirectory(path: given) }
        if let variable = environment["HIL_BONDS"], !variable.isEmpty { return BondDirectory(path: variable) }
        let home = environment["HOME"] ?? NSHomeDirectory()
        // The XDG Base Directory Specification: unset, empty or relative means $HOME/.local/share.
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (home as NSString).appendingPathComponent(".local/share")
        return BondDirectory(path: (data as NSString).appendingPathComponent("hil/bonds"))
    }

    /// The bond file of `adapter`, created (with `identity`, else a fresh one) when it does not exist.
    public func file(for adapter: String, identity: LocalIdentity? = nil) async throws(SecurityError) -> AdapterBondFile {
        try await AdapterBondFile(directory: path, adapter: adapter, identity: identity, options: options)
    }

    /// Every adapter file in the directory, each read, or the error that names it.
    public func files() -> [Result<AdapterBondFile, SecurityError>] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { name in
            let file = (path as NSString).appendingPathComponent(name)
            do throws(SecurityError) {
                return .success(try AdapterBondFile(opening: file, options: options))
            } catch {
                return .failure(error)
            }
        }
    }
}
