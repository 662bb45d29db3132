import Foundation
import Testing
import TestSupport

/// `hil pair` on a store the disk refuses: exit 2, one line on standard error naming the file and errno's
/// text, and nothing said to be stored (the old behaviour: "bonded … stored", exit 0, the bond gone).
@Suite(.tags(.process)) struct BondStoreFailureCommandTests {
    typealias Commands = BondStoreCommands

    /// `ran` failed as a store the disk refuses must: exit 2, one line on standard error naming the file and
    /// `reason`, nothing said to be stored.
    static func expectStoreFailure(_ ran: Commands.Run, file: String, reason: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(ran.status == 2, "stdout: \(ran.stdout) stderr: \(ran.stderr)", sourceLocation: sourceLocation)
        let lines = ran.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(ran.stderr)", sourceLocation: sourceLocation)
        #expect(ran.stderr.contains("paired, but the bond was not stored: bond store: "), "\(ran.stderr)", sourceLocation: sourceLocation)
        #expect(ran.stderr.contains(file) && ran.stderr.contains(reason), "\(ran.stderr)", sourceLocation: sourceLocation)
        #expect(!ran.stdout.contains("stored"), "\(ran.stdout)", sourceLocation: sourceLocation)
    }

    @Test("hil pair on a store that cannot be written: exit 2, one line naming the file and the failure, no \"stored\"")
    func unwritableStore() async throws {
        let (bonds, file, before) = try await Commands.storeWithOneBond()
        defer { TemporaryDirectory.remove(bonds) }
        let refusal = try await StoreRefusal.make(bonds.path, file: file)
        let ran = try await Commands.hil(["pair", "sim:central", "--rig", Commands.rig] + Commands.lock + ["--bonds", bonds.path])
        await refusal.undo()
        Self.expectStoreFailure(ran, file: bonds.path, reason: refusal.reason)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "the bond file changed (\(refusal.how))")
    }

    @Test("hil pair whose write fails mid-file (a file size limit: EFBIG, as a full disk fails a write): exit 2, no \"stored\"")
    func writeFailsMidFile() async throws {
        let (bonds, file, before) = try await Commands.storeWithOneBond()
        defer { TemporaryDirectory.remove(bonds) }
        // RLIMIT_FSIZE binds root too; with SIGXFSZ ignored (dispositions set to ignore survive exec), the
        // write returns EFBIG instead of killing the process. Standard output and error are pipes, not files.
        let ran = await runProgramCapturing("/bin/sh", ["-c", "trap '' XFSZ; ulimit -f 0; exec \"$0\" \"$@\"", try ChildProgram.hilBinary(),
                                                        "pair", "sim:central", "--rig", Commands.rig] + Commands.lock + ["--bonds", bonds.path])
        Self.expectStoreFailure((ran.termination?.exitStatus, ran.stdout, ran.stderr), file: file + ".tmp",
                                reason: String(cString: strerror(EFBIG)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: bonds.path).sorted() == ["sim_central.json", "sim_central.json.lock"])
    }

}

/// A store directory made unwritable in the strongest way this process can: chmod 0555 where permission
/// bits bind; as root, where they do not, `chattr +i` (the immutable flag stops root), and where the file
/// system has no such flag, a directory where the store's temporary file goes.
struct StoreRefusal: Sendable {
    let directory: String
    let how: String
    /// errno's text the failing call gives.
    let reason: String
    let undoing: @Sendable () async -> Void

    func undo() async { await undoing() }

    static func make(_ directory: String, file: String) async throws -> StoreRefusal {
        if geteuid() != 0 {
            chmod(directory, 0o555)
            return StoreRefusal(directory: directory, how: "chmod 0555", reason: String(cString: strerror(EACCES))) { chmod(directory, 0o700) }
        }
        let immutable = await runProgram("/usr/bin/env", ["chattr", "+i", directory])
        if immutable.status == 0 {
            if !canCreate(in: directory) {
                return StoreRefusal(directory: directory, how: "chattr +i", reason: String(cString: strerror(EPERM))) {
                    _ = await runProgram("/usr/bin/env", ["chattr", "-i", directory])
                }
            }
            _ = await runProgram("/usr/bin/env", ["chattr", "-i", directory])
        }
        let temporary = file + ".tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        return StoreRefusal(directory: directory, how: "a directory at \(temporary)", reason: String(cString: strerror(EISDIR))) {
            try? FileManager.default.removeItem(atPath: temporary)
        }
    }

    static func canCreate(in directory: String) -> Bool {
        let probe = directory + "/.probe"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        close(fd)
        unlink(probe)
        return true
    }
}
