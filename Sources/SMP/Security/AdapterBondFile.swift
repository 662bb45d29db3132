// One adapter's bonds and identity in a JSON file.
import Support
import BluetoothCrypto
import Foundation
import HCIPackets

/// The bonds and identity of one adapter, kept in `<directory>/<adapter>.json` (readable JSON, mode 0600):
/// a small database that does not lose a write.
///
/// - One writer at a time, across processes (flock(2) on `<file>.lock`) and inside this one, each change
///   waiting at most `BondStoreOptions.lockTimeout`.
/// - A change is merged into what is on the disk now, read again under the lock: `save` replaces that
///   peer's bond, `forget` removes that peer, and every other writer's bonds stay. A process that holds
///   the file for hours (`hil advertise`) never writes back a stale copy.
/// - The file is replaced atomically (a temporary file made 0600 from its first byte, fsync, rename, fsync
///   of the directory): a crash leaves the old version or the new one, never half of one.
/// - Reads see the latest version on the disk.
/// - A change that does not reach the disk throws `SecurityError.bondStore` naming the file and errno's
///   text; a file that does not parse is an error naming it, and is never overwritten.
public actor AdapterBondFile: BondStorage {
    /// The file's path.
    public nonisolated let path: String
    /// The adapter it belongs to (its moniker, e.g. `usb:0A12:0001/1`, `sim:central`).
    public nonisolated let adapter: String
    let options: BondStoreOptions
    let disk: BondFileDisk
    /// The latest version read or written.
    var contents: BondFileDisk.Contents
    var stamp: FileStamp?

    typealias Contents = BondFileDisk.Contents

    /// Opens the file of `adapter` in `directory`, or creates it (and the directory, mode 0700) with
    /// `identity`, by default a fresh random static address and IRK. Creating takes the store's lock, so
    /// two processes that open a new store at once share one identity.
    public init(directory: String, adapter: String, identity: LocalIdentity? = nil,
                options: BondStoreOptions = BondStoreOptions()) async throws(SecurityError) {
        let path = (directory as NSString).appendingPathComponent(Self.fileName(for: adapter))
        let disk = BondFileDisk(fileSystem: options.fileSystem)
        let version: BondFileDisk.Version
        do throws(BondStoreError) {
            if let existing = try disk.read(path) {
                version = existing
            } else {
                try disk.makeDirectories(directory)
                version = try await Self.create(path, adapter: adapter, identity: identity, disk: disk, options: options)
            }
        } catch {
            throw .bondStore(error)
        }
        self.path = path
        self.adapter = adapter
        self.options = options
        self.disk = disk
        contents = version.contents
        stamp = version.stamp
    }

    /// Opens an existing bond file (or a file `hil bonds export` wrote).
    public init(opening path: String, options: BondStoreOptions = BondStoreOptions()) throws(SecurityError) {
        let disk = BondFileDisk(fileSystem: options.fileSystem)
        let version: BondFileDisk.Version?
        do throws(BondStoreError) {
            version = try disk.read(path)
        } catch {
            throw .bondStore(error)
        }
        guard let version else { throw .bondStore(BondStoreError(.unreadable, path: path, "\(path): cannot read: \(SystemCallError(ENOENT))")) }
        self.path = path
        self.disk = disk
        self.options = options
        adapter = version.contents.adapter
        contents = version.contents
        stamp = version.stamp
    }

    /// Under the lock: the file another process made meanwhile, else a new one.
    private static func create(_ path: String, adapter: String, identity: LocalIdentity?, disk: BondFileDisk,
                               options: BondStoreOptions) async throws(BondStoreError) -> BondFileDisk.Version {
        let lock = try await BondFileLock.acquire(for: path, started: options.clock.now, options: options)
        defer { lock.release() }
        if let existing = try disk.read(path) { return existing }
        let chosen: LocalIdentity
        do {
            chosen = try identity ?? LocalIdentity.randomStatic()
        } catch {
            throw BondStoreError(.writeFailed, path: path, "cannot draw an identity for \(path): \(error)")
        }
        let contents = Contents(adapter: adapter, identity: chosen, bonds: [])
        return BondFileDisk.Version(contents: contents, stamp: try disk.replace(path, with: contents))
    }

    /// The file name for an adapter moniker: its letters, digits, dots and dashes, the rest as `_`.
    public static func fileName(for adapter: String) -> String {
        String(adapter.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" }) + ".json"
    }

    /// Our identity on this adapter: a random static address and an IRK, the same on every run.
    public var identity: LocalIdentity {
        refresh()
        return contents.identity
    }

    /// Every bond in the file's latest version.
    public func bonds() -> [Bond] {
        refresh()
        return contents.bonds
    }

    /// The file's latest version as it is on the disk (what `hil bonds export` prints).
    public func document() throws(SecurityError) -> [UInt8] {
        refresh()
        do throws(BondStoreError) {
            return try BondFileDisk.encoded(contents)
        } catch {
            throw .bondStore(error)
        }
    }

    /// Keeps `bond` in the file as it is now, replacing the bond with the same peer.
    public func save(_ bond: Bond) async throws(SecurityError) {
        try await save(contentsOf: [bond])
    }

    /// Keeps `bonds` in the file as it is now, in one change: each replaces the bond with its peer.
    public func save(contentsOf bonds: [Bond]) async throws(SecurityError) {
        _ = try await change(creating: true) { contents in
            for bond in bonds {
                contents.bonds.removeAll { $0.peerAddress == bond.peerAddress }
                contents.bonds.append(bond)
            }
        }
    }

    /// Removes the bond with `peer` from the file as it is now; false when the file holds none.
    public func forget(peer: BDAddress) async throws(SecurityError) -> Bool {
        try await change(creating: false) { contents in contents.bonds.removeAll { $0.peerAddress == peer } }
    }

    /// Applies `edit` to the file's version on the disk, under the lock, and writes the result if it
    /// differs; whether it did. A file removed meanwhile is made again (`creating`) with the identity this
    /// instance holds, or left absent.
    private func change(creating: Bool, _ edit: (inout Contents) -> Void) async throws(SecurityError) -> Bool {
        do throws(BondStoreError) {
            let lock = try await BondFileLock.acquire(for: path, started: options.clock.now, options: options)
            defer { lock.release() }
            let current = try disk.read(path)
            guard current != nil || creating else { return false }
            var updated = current?.contents ?? Contents(adapter: adapter, identity: contents.identity, bonds: [])
            edit(&updated)
            guard updated != current?.contents else {
                if let current { (contents, stamp) = (current.contents, current.stamp) }
                return false
            }
            stamp = try disk.replace(path, with: updated)
            contents = updated
            return true
        } catch {
            throw .bondStore(error)
        }
    }

    /// Reads the file again when it is not the version last read or written. A version that cannot be
    /// read leaves the last one in place: the next change names the file.
    private func refresh() {
        guard let now = disk.stamp(path), stamp.map({ !$0.isSameVersion(as: now) }) ?? true else { return }
        if let version = try? disk.read(path) {
            contents = version.contents
            stamp = version.stamp
        }
    }
}
