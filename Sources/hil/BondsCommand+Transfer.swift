import Foundation
import SMP

/// `hil bonds export` and `hil bonds import`: an adapter's bonds moved to another store (a new bench host,
/// a store shared by several runners), merged there by peer under the store's lock.
extension BondsCommand {
    /// Prints the file of `adapter` as it is on the disk.
    static func export(_ adapter: String, from directory: BondDirectory) async -> ExitStatus {
        let path = (directory.path as NSString).appendingPathComponent(AdapterBondFile.fileName(for: adapter))
        guard FileManager.default.fileExists(atPath: path) else {
            return Diagnostics.fail("bonds", "no bond file for \(adapter) in \(directory.path)", .productFailure)
        }
        do {
            let file = try AdapterBondFile(opening: path, options: directory.options)
            StandardStreams.output(Data(try await file.document()))
            return .success
        } catch {
            return Diagnostics.fail("bonds", error.description, error.bondStoreFailure?.exitStatus ?? .infrastructureError)
        }
    }

    /// Merges the bonds of the exported file at `path` into the file of `adapter` (default: the exported
    /// one's), which must hold the same identity, or is made with it.
    static func importFile(_ path: String, adapter: String?, into directory: BondDirectory) async -> ExitStatus {
        let exported: AdapterBondFile
        do {
            exported = try AdapterBondFile(opening: path)
        } catch {
            return Diagnostics.fail("bonds", error.description, .usageError)
        }
        let target = adapter ?? exported.adapter
        let identity = await exported.identity
        let bonds = await exported.bonds()
        do {
            let file = try await directory.file(for: target, identity: identity)
            let held = await file.identity
            guard held == identity else {
                return Diagnostics.fail("bonds", "\(path) holds bonds made as \(identity.address); \(target) in \(directory.path) is "
                                        + "\(held.address): they would not work there", .usageError)
            }
            try await file.save(contentsOf: bonds)
            print("imported \(bonds.count) bond(s) into \(target) (\(file.path))")
            return .success
        } catch {
            return Diagnostics.fail("bonds", error.description, error.bondStoreFailure?.exitStatus ?? .infrastructureError)
        }
    }
}
