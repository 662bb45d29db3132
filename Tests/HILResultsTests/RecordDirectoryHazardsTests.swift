import Foundation
@testable import HILResults
import Testing
import TestSupport

/// records/ holding what is not a record: each is one error naming the file and what it is, in words a
/// user can act on — never Foundation's error-domain text — and a test case recorded twice is an error
/// naming both files, not a second count.
@Suite struct RecordDirectoryHazardsTests {
    /// A results directory with two good records; returns it and its records/.
    private func directory() throws -> (root: URL, records: URL) {
        let root = try TemporaryDirectory.make("hil-records-hazards")
        for name in ["first", "second"] { try SampleRecords.record(name).write(toResultsDirectory: root) }
        return (root, root.appendingPathComponent("records", isDirectory: true))
    }

    private func errors(in records: URL) -> (count: Int, messages: [String]) {
        let loaded = TestRecord.loadAll(in: records)
        return (loaded.records.count, loaded.errors.map(\.description))
    }

    /// Not waited on: opening a FIFO no one writes would block for ever, which scripts/test's phase limit
    /// reports naming this test; returning at all is the check.
    @Test func aFIFOIsNamedAsOneAndNotWaitedOn() throws {
        let (root, records) = try directory()
        defer { TemporaryDirectory.remove(root) }
        let fifo = records.appendingPathComponent("x.json")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let loaded = errors(in: records)
        #expect(loaded.count == 2)
        #expect(loaded.messages == ["\(fifo.path): a FIFO, not a regular file"])
    }

    @Test func aDirectoryIsNamedAsOne() throws {
        let (root, records) = try directory()
        defer { TemporaryDirectory.remove(root) }
        let folder = records.appendingPathComponent("folder.json", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        #expect(errors(in: records).messages == ["\(folder.path): a directory, not a regular file"])
    }

    @Test(.disabled(if: geteuid() == 0, "root reads a file whatever its mode, so it cannot be made unreadable"))
    func anUnreadableFileGivesTheSystemsReason() throws {
        let (root, records) = try directory()
        defer { TemporaryDirectory.remove(root) }
        let locked = records.appendingPathComponent("locked.json")
        try Data("{}".utf8).write(to: locked)
        #expect(chmod(locked.path, 0) == 0)
        #expect(errors(in: records).messages == ["\(locked.path): cannot read: \(String(cString: strerror(EACCES)))"])
    }

    @Test func aFileThatIsNotJSONIsNamedWithoutFoundationsDomainText() throws {
        let (root, records) = try directory()
        defer { TemporaryDirectory.remove(root) }
        try Data([0x7F, 0x45, 0x4C, 0x46, 0x02]).write(to: records.appendingPathComponent("binary.json"))
        let messages = errors(in: records).messages
        #expect(messages.count == 1 && messages[0].hasPrefix(records.appendingPathComponent("binary.json").path + ": not a valid test record"), "\(messages)")
        #expect(!messages.joined().contains("NSCocoaErrorDomain") && !messages.joined().contains("permission"))
    }

    @Test func aTestCaseRecordedTwiceIsAnErrorNamingBothFiles() throws {
        let (root, records) = try directory()
        defer { TemporaryDirectory.remove(root) }
        let original = try #require(try FileManager.default.contentsOfDirectory(atPath: records.path).sorted().first)
        let copy = "zz-copy.json"
        try FileManager.default.copyItem(at: records.appendingPathComponent(original), to: records.appendingPathComponent(copy))
        let loaded = errors(in: records)
        #expect(loaded.count == 2, "the copy is not counted")
        #expect(loaded.messages.count == 1)
        #expect(loaded.messages.first?.hasPrefix("\(records.appendingPathComponent(copy).path): records the same test case as \(original) (") == true, "\(loaded.messages)")
        // hil report exits 3 on any error: the rendering carries it as a usage-error problem.
        let rendering = try ResultsRenderer.assemble(root)
        #expect(rendering.errors.count == 1)
        #expect(rendering.assembly.cases.count == 2)
    }
}
