#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Support
import Testing
import TestSupport

/// Atomic replacement, the one both the results writer and the bond store use: the new content whole or the
/// old, a temporary file that is 0600 from the moment it exists, and every system call's failure an error
/// naming the step and the file with the system's reason (strerror(3)'s text), with no temporary file left.
@Suite struct AtomicFileTests {
    @Test func aFileIsReplacedWholeAndCreatedPrivate() throws {
        let directory = try TemporaryDirectory.make("hil-atomic")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("bonds.json").path
        let calls = ScriptedFileSystem()
        try AtomicFile.replace(path, with: Array("first, longer".utf8), fileSystem: calls)
        let stamp = try AtomicFile.replace(path, with: Array("second".utf8), fileSystem: calls)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(stamp.size == 6)
        #expect(calls.creations.count == 2)
        #expect(calls.creations.allSatisfy { $0.modeAtCreation & 0o077 == 0 && $0.flags & O_EXCL != 0 }, "\(calls.creations.map(\.modeAtCreation))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["bonds.json"], "no temporary file left")
    }

    /// The step each system call's failure is named by.
    static let steps: [String: ScriptedFileSystem.Operation] = ["create": .open, "write": .write, "fsync": .fsync, "replace": .rename]

    @Test(arguments: ["create", "write", "fsync", "replace"])
    func eachStepsFailureNamesTheStepAndTheReason(step: String) throws {
        let operation = try #require(Self.steps[step])
        let directory = try TemporaryDirectory.make("hil-atomic")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("junit.xml").path
        try AtomicFile.replace(path, with: Array("old".utf8))
        let calls = ScriptedFileSystem()
        // A rename is named by the file it replaces; the other calls by the temporary file.
        calls.fail(operation, on: step == "replace" ? "junit.xml" : ".tmp", errno: EROFS)
        #expect {
            try AtomicFile.replace(path, with: Array("new".utf8), temporary: path + ".tmp", fileSystem: calls)
        } throws: { error in
            guard let error = error as? AtomicFileError else { return false }
            return error.step == step && error.description.hasPrefix("cannot \(step) ")
                && error.description.hasSuffix(": " + String(cString: strerror(EROFS)))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old", "the old content stays whole")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["junit.xml"], "no temporary file left")
    }

    /// A full disk as the kernel reports it: the write of the temporary file fails with ENOSPC.
    @Test func aFullDiskIsAWriteFailureWithTheKernelsReason() throws {
        let directory = try TemporaryDirectory.make("hil-atomic")
        defer { TemporaryDirectory.remove(directory) }
        let path = directory.appendingPathComponent("results.json").path
        let calls = ScriptedFileSystem()
        calls.fillDisk(for: ".tmp")
        #expect {
            try AtomicFile.replace(path, with: Array(repeating: 0x61, count: 4096), temporary: path + ".tmp", fileSystem: calls)
        } throws: { error in
            (error as? AtomicFileError)?.description == "cannot write \(path).tmp: \(String(cString: strerror(ENOSPC)))"
        }
    }

    @Test func theDefaultTemporaryNameIsHiddenBesideTheFileAndUnique() {
        let first = AtomicFile.temporaryPath(for: "/results/run/junit.xml")
        let second = AtomicFile.temporaryPath(for: "/results/run/junit.xml")
        #expect(first.hasPrefix("/results/run/.junit.xml.tmp-\(getpid())-"))
        #expect(first != second)
        #expect(AtomicFile.directory(of: "junit.xml") == ".")
        #expect(AtomicFile.directory(of: "/junit.xml") == "/")
    }
}
