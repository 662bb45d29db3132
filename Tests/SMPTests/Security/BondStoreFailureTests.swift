import Foundation
@testable import SMP
import TestSupport
import Testing

/// A change the disk refuses is an error naming the file and errno's text, and leaves the file as it was
/// (no temporary file behind); the store works again once the disk does. The failures come through the
/// store's file-system seam, from /dev/full (the kernel's own ENOSPC), or from a directory that cannot be
/// written.
@Suite("AdapterBondFile: writes that fail")
struct BondStoreFailureTests {
    /// Which file a failure strikes.
    enum Target: Sendable {
        case temporary, lock, file, directory

        func path(of file: String) -> String {
            switch self {
            case .temporary: file + ".tmp"
            case .lock: file + ".lock"
            case .file: file
            case .directory: (file as NSString).deletingLastPathComponent
            }
        }
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        let what: String
        /// The failing call and its errno; nil for the full disk of /dev/full.
        let call: (operation: ScriptedFileSystem.Operation, code: Int32)?
        let target: Target
        /// The action the error names: `cannot <action> <path>`.
        let action: String
        /// Whether the new version was in place when the call failed (the rename happened; the fsync of the
        /// directory that makes it durable did not).
        var renamed = false
        var testDescription: String { what }
    }

    static let failures: [Failure] = [
        Failure(what: "a full disk (/dev/full)", call: nil, target: .temporary, action: "write"),
        Failure(what: "a full disk (ENOSPC on write)", call: (.write, ENOSPC), target: .temporary, action: "write"),
        Failure(what: "a read-only file system (EROFS creating the temporary file)", call: (.open, EROFS), target: .temporary, action: "create"),
        Failure(what: "a disk error at fsync (EIO)", call: (.fsync, EIO), target: .temporary, action: "fsync"),
        Failure(what: "a rename refused (EACCES)", call: (.rename, EACCES), target: .file, action: "replace"),
        Failure(what: "the directory's fsync failing (EIO)", call: (.fsync, EIO), target: .directory, action: "fsync the directory",
                renamed: true),
        Failure(what: "a lock file that cannot be opened (EACCES)", call: (.open, EACCES), target: .lock, action: "open the lock file"),
    ]

    @Test("A save the disk refuses is an error naming the file and errno's text; the file stays as it was", arguments: failures)
    func refusedSave(_ failure: Failure) async throws {
        try await BondStoreFixture.withDirectory { directory in
            let files = ScriptedFileSystem()
            let file = try await AdapterBondFile(directory: directory, adapter: BondStoreFixture.adapter,
                                                 options: BondStoreFixture.options(fileSystem: files))
            let kept = BondStoreFixture.bond(writer: 1, index: 1), refused = BondStoreFixture.bond(writer: 1, index: 2)
            try await file.save(kept)
            let before = try Data(contentsOf: URL(fileURLWithPath: file.path))
            let path = failure.target.path(of: file.path)
            let reason: String
            if let call = failure.call {
                files.fail(call.operation, on: (path as NSString).lastPathComponent, errno: call.code)
                reason = String(cString: strerror(call.code))
            } else {
                files.fillDisk(for: ".tmp")
                reason = String(cString: strerror(ENOSPC))
            }
            let error = await #expect(throws: SecurityError.self) { try await file.save(refused) }
            guard case .bondStore(let store)? = error else {
                Issue.record("not a bond store error: \(String(describing: error))")
                return
            }
            #expect(store.kind == .writeFailed)
            #expect(store.path == path)
            #expect(store.description == "cannot \(failure.action) \(path): \(reason)")
            #expect(error?.description == "bond store: cannot \(failure.action) \(path): \(reason)")
            // Nothing changed on the disk (unless the rename was done: then the new version is there, but not
            // known to survive a crash, which is the failure), and nothing was left beside the file.
            if failure.renamed {
                #expect(Set(try BondStoreFixture.bondsOnDisk(file.path).map(\.peerAddress)) == [kept.peerAddress, refused.peerAddress])
            } else {
                #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == before)
                #expect(await file.bonds() == [kept])
            }
            let name = (file.path as NSString).lastPathComponent
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [name, name + ".lock"])
            // Once the disk works again, so does the store.
            files.heal()
            try await file.save(refused)
            #expect(Set(try BondStoreFixture.bondsOnDisk(file.path).map(\.peerAddress)) == [kept.peerAddress, refused.peerAddress])
        }
    }

    @Test("A forget the disk refuses is an error too, and the bond stays")
    func refusedForget() async throws {
        try await BondStoreFixture.withDirectory { directory in
            let files = ScriptedFileSystem()
            let file = try await AdapterBondFile(directory: directory, adapter: BondStoreFixture.adapter,
                                                 options: BondStoreFixture.options(fileSystem: files))
            let bond = BondStoreFixture.bond(writer: 2, index: 1)
            try await file.save(bond)
            files.fail(.write, on: ".tmp", errno: ENOSPC)
            let error = await #expect(throws: SecurityError.self) { _ = try await file.forget(peer: bond.peerAddress) }
            #expect(error?.description == "bond store: cannot write \(file.path).tmp: No space left on device")
            #expect(try BondStoreFixture.bondsOnDisk(file.path) == [bond])
        }
    }

    @Test("A store directory that cannot be written: chmod 0555, or where that does not bind (root), a directory turned into a file")
    func unwritableDirectory() async throws {
        let parent = try TemporaryDirectory.make("bonds")
        defer {
            chmod(parent.appendingPathComponent("store").path, 0o700)
            TemporaryDirectory.remove(parent)
        }
        let directory = parent.appendingPathComponent("store").path
        let file = try await AdapterBondFile(directory: directory, adapter: BondStoreFixture.adapter, options: BondStoreFixture.options())
        let kept = BondStoreFixture.bond(writer: 3, index: 1)
        try await file.save(kept)
        let expected: String
        #expect(chmod(directory, 0o555) == 0)
        if Self.canCreate(in: directory) {
            // Permission bits do not stop this process (root): take the directory away, and put a file there.
            #expect(chmod(directory, 0o700) == 0)
            #expect(rename(directory, directory + ".moved") == 0)
            #expect(FileManager.default.createFile(atPath: directory, contents: Data("not a directory".utf8)))
            expected = "cannot open the lock file \(file.path).lock: \(String(cString: strerror(ENOTDIR)))"
        } else {
            expected = "cannot create \(file.path).tmp: \(String(cString: strerror(EACCES)))"
        }
        let error = await #expect(throws: SecurityError.self) { try await file.save(BondStoreFixture.bond(writer: 3, index: 2)) }
        #expect(error?.description == "bond store: " + expected)
        let stored = FileManager.default.fileExists(atPath: directory + ".moved") ? directory + ".moved/" + (file.path as NSString).lastPathComponent : file.path
        #expect(try BondStoreFixture.bondsOnDisk(stored) == [kept])
    }

    /// Whether this process can create a file in `directory` (false where its permission bits stop it).
    static func canCreate(in directory: String) -> Bool {
        let probe = directory + "/.probe"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        close(fd)
        unlink(probe)
        return true
    }

    @Test("Every file the store makes is 0600 from its first byte: open(2) with O_CREAT | O_EXCL and mode 0600")
    func modeAtCreation() async throws {
        try await BondStoreFixture.withDirectory { parent in
            let files = ScriptedFileSystem()
            let directory = parent + "/new/store"
            let file = try await AdapterBondFile(directory: directory, adapter: BondStoreFixture.adapter,
                                                 options: BondStoreFixture.options(fileSystem: files))
            try await file.save(BondStoreFixture.bond(writer: 4, index: 1))
            let creations = files.creations
            let temporary = creations.filter { $0.path == file.path + ".tmp" }
            #expect(temporary.count == 2, "one temporary file for the creation, one for the save")
            for creation in temporary {
                #expect(creation.flags & (O_CREAT | O_EXCL) == O_CREAT | O_EXCL, "\(creation.path): O_CREAT | O_EXCL")
                #expect(creation.mode == 0o600)
                #expect(creation.modeAtCreation == 0o600, "\(creation.path) was \(String(creation.modeAtCreation, radix: 8)) when it was made")
            }
            let lock = try #require(creations.first { $0.path == file.path + ".lock" })
            #expect(lock.mode == 0o600 && lock.modeAtCreation == 0o600)
            #expect(creations.allSatisfy { $0.modeAtCreation & 0o077 == 0 }, "no file was ever open to others")
            #expect(BondStoreFixture.mode(file.path) == 0o600)
            #expect(BondStoreFixture.mode(directory) == 0o700)
            #expect(BondStoreFixture.mode(parent + "/new") == 0o700)
        }
    }

    @Test("A file larger than any bond file is not read whole: an error naming it")
    func oversizedFile() async throws {
        try await BondStoreFixture.withDirectory { directory in
            let path = directory + "/sim_central.json"
            try Data(repeating: 0x20, count: BondFileDisk.maximumSize + 1).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: SecurityError.self) { _ = try AdapterBondFile(opening: path, options: BondStoreFixture.options()) }
            #expect(error?.description == "bond store: \(path): not a bond file: larger than 16 MiB")
        }
    }

    @Test("A file damaged after it was opened is named by the next change, and not overwritten")
    func damagedMeanwhile() async throws {
        try await BondStoreFixture.withDirectory { directory in
            let file = try await AdapterBondFile(directory: directory, adapter: BondStoreFixture.adapter, options: BondStoreFixture.options())
            let damaged = Data("{\"adapter\": \"usb".utf8)
            try damaged.write(to: URL(fileURLWithPath: file.path))
            let error = await #expect(throws: SecurityError.self) { try await file.save(BondStoreFixture.bond(writer: 5, index: 1)) }
            guard case .bondStore(let store)? = error else {
                Issue.record("not a bond store error: \(String(describing: error))")
                return
            }
            #expect(store.kind == .unreadable)
            #expect(store.description.hasPrefix("\(file.path): not a bond file"), "\(store)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == damaged)
        }
    }
}
