import Foundation
@testable import HILResults
import Testing
import TestSupport

/// A results directory is its owner's alone, as the bond store is: each directory made mode 0700 by the
/// `mkdir(2)` that makes it (watched at that call), each file written mode 0600 from its creation.
@Suite struct ResultsModeTests {
    static func mode(_ url: URL) throws -> Int {
        try #require((try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    /// The layout's directories — and the parents it had to make — are created by mkdir(2) with mode 0700.
    @Test func theLayoutsDirectoriesAreMadeMode0700() throws {
        let scratch = try TemporaryDirectory.make("hil-modes")
        defer { TemporaryDirectory.remove(scratch) }
        let layout = ResultsLayout(scratch.appendingPathComponent("runs/secure"))
        try layout.create()
        for url in [scratch.appendingPathComponent("runs"), layout.directory, layout.records, layout.captures, layout.attachments] {
            #expect(try Self.mode(url) == 0o700, "\(url.path)")
        }
    }

    @Test func eachMkdirIsGivenMode0700() throws {
        let scratch = try TemporaryDirectory.make("hil-modes")
        defer { TemporaryDirectory.remove(scratch) }
        var made: [(String, mode_t, Int)] = []
        let target = scratch.appendingPathComponent("a/b/c")
        try PrivateDirectory.create(target) { path, mode in
            let result = mkdir(path, mode)
            var status = stat()
            _ = stat(path, &status)
            made.append((path, mode, Int(status.st_mode) & 0o7777))
            return result
        }
        #expect(made.map(\.0) == ["a", "a/b", "a/b/c"].map { scratch.appendingPathComponent($0).path })
        #expect(made.allSatisfy { $0.1 == 0o700 && $0.2 == 0o700 }, "\(made)")
    }

    /// A directory already there is left as it is; a file where a directory should be is an error naming it.
    @Test func existingDirectoriesAreKeptAndAFileInTheWayIsNamed() throws {
        let scratch = try TemporaryDirectory.make("hil-modes")
        defer { TemporaryDirectory.remove(scratch) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path)
        try PrivateDirectory.create(scratch)
        #expect(try Self.mode(scratch) == 0o755)
        let file = scratch.appendingPathComponent("file")
        try Data().write(to: file)
        #expect(throws: ResultsError.self) { try PrivateDirectory.create(file.appendingPathComponent("below")) }
        do {
            try PrivateDirectory.create(file)
            Issue.record("a file was taken for a directory")
        } catch {
            #expect(error.description.contains(file.path) && error.description.contains("not a directory"), "\(error)")
        }
    }

    /// junit.xml, results.json, report.html, .run.json, the records and the progress lines: mode 0600.
    @Test func resultFilesAreMode0600() throws {
        let scratch = try TemporaryDirectory.make("hil-modes")
        defer { TemporaryDirectory.remove(scratch) }
        let layout = ResultsLayout(scratch)
        try ResultsFile.write("<testsuites/>", to: layout.junit)
        #expect(try Self.mode(layout.junit) == 0o600)
        let record = try SampleRecords.record("pairing", accessory: "lock").write(toResultsDirectory: scratch)
        #expect(try Self.mode(record) == 0o600)
        #expect(try Self.mode(layout.records) == 0o700)
        try RunContext(rig: nil, command: "hil run", started: Date(timeIntervalSince1970: 1_795_960_931)).write(to: layout)
        #expect(try Self.mode(layout.runContext) == 0o600)
        LoopProgress(testID: "t", label: "pairings", done: 1, total: 2, time: Date(timeIntervalSince1970: 1_795_960_931))
            .report(environment: ["HIL_RESULTS": scratch.path])
        #expect(try Self.mode(layout.progress) == 0o600)
    }
}
