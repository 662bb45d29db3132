import Foundation
import Testing
import TestSupport

/// `hil preflight` and `hil report` given files built to break them, through the real binary: one line on
/// stderr, exit 3, no crash (before the limits, a deep manifest was SIGSEGV, exit 139), and no control
/// byte from the file ever reaches the terminal.
@Suite(.tags(.process)) struct HostileFileCommandTests {
    static func hil(_ arguments: [String]) async throws -> (status: Int32?, stdout: String, stderr: String) {
        try await HelpAndVersionTests.hil(arguments)
    }

    /// Writes `text` as `name` in `directory`.
    private func write(_ text: String, as name: String, in directory: URL) throws -> URL {
        let file = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test func aManifestNested50000DeepIsOneLineAndExitThree() async throws {
        let scratch = try TemporaryDirectory.make("hil-hostile")
        defer { TemporaryDirectory.remove(scratch) }
        let file = try write("<manifest>" + String(repeating: "<a>", count: 50_000) + String(repeating: "</a>", count: 50_000) + "</manifest>",
                             as: "AndroidManifest.xml", in: scratch)
        let ran = try await Self.hil(["preflight", "android", file.path])
        #expect(ran.status == 3)
        #expect(ran.stderr.split(separator: "\n").count == 1, "\(ran.stderr)")
        #expect(ran.stderr.hasPrefix("hil preflight: \(file.path):1:"))
        #expect(ran.stderr.contains("more than ReaderLimits.nestingDepth = 512 in /manifest/a/a/a/"), "\(ran.stderr)")
    }

    @Test func anXMLPlistNested5000DeepAndAManifestOf100000AttributesAreOneLineAndExitThree() async throws {
        let scratch = try TemporaryDirectory.make("hil-hostile")
        defer { TemporaryDirectory.remove(scratch) }
        let plist = try write("<plist>" + String(repeating: "<array>", count: 5_000) + String(repeating: "</array>", count: 5_000) + "</plist>",
                              as: "Info.plist", in: scratch)
        let deep = try await Self.hil(["preflight", "ios", plist.path])
        #expect(deep.status == 3)
        #expect(deep.stderr == "hil preflight: \(plist.path):1:3585: refused: <array> nested 513 deep, more than ReaderLimits.nestingDepth = 512 in /plist/array/array/array/…(505 more)…/array/array/array\n")
        let manifest = try write("<manifest><application" + (0..<100_000).map { " a\($0)=\"\($0)\"" }.joined() + "/></manifest>",
                                 as: "AndroidManifest.xml", in: scratch)
        let wide = try await Self.hil(["preflight", "android", manifest.path])
        #expect(wide.status == 3)
        #expect(wide.stderr.split(separator: "\n").count == 1)
        #expect(wide.stderr.hasSuffix(": refused: attribute number 65536 on one element, more than ReaderLimits.attributesPerElement = 65535 in /manifest/application\n"), "\(wide.stderr)")
    }

    @Test func controlBytesFromTheFileAreEscaped() async throws {
        let scratch = try TemporaryDirectory.make("hil-hostile")
        defer { TemporaryDirectory.remove(scratch) }
        let file = try write("<plist><dict><key>\u{1B}]0;owned\u{07}\u{1B}[2J</key><key>b</key></dict></plist>", as: "Info.plist", in: scratch)
        let ran = try await Self.hil(["preflight", "ios", file.path])
        #expect(ran.status == 3)
        #expect(!ran.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(ran.stderr.debugDescription)")
        #expect(ran.stderr.contains(#"<key>\u{1B}]0;owned\u{7}\u{1B}[2J</key> is followed by another <key>"#), "\(ran.stderr)")
    }

    @Test func preflightOfAFIFOIsRefusedNotWaitedOn() async throws {
        let scratch = try TemporaryDirectory.make("hil-hostile")
        defer { TemporaryDirectory.remove(scratch) }
        let fifo = scratch.appendingPathComponent("Info.plist")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let ran = try await Self.hil(["preflight", "ios", fifo.path])
        #expect(ran.status == 3)
        #expect(ran.stderr == "hil preflight: cannot read \(fifo.path): it is not a regular file (a FIFO, socket or device)\n", "\(ran.stderr)")
    }

    @Test func reportNamesAFIFOAmongTheRecordsAndExitsThree() async throws {
        let scratch = try TemporaryDirectory.make("hil-hostile")
        defer { TemporaryDirectory.remove(scratch) }
        try SampleRecords.record("first").write(toResultsDirectory: scratch)
        let fifo = scratch.appendingPathComponent("records/x.json")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let ran = try await Self.hil(["report", scratch.path, "--quiet"])
        #expect(ran.status == 3)
        #expect(ran.stderr.contains("hil report: \(fifo.path): a FIFO, not a regular file"), "\(ran.stderr)")
        #expect(!ran.stderr.contains("permission") && !ran.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test func reportRefusesATestCaseRecordedTwice() async throws {
        let scratch = try TemporaryDirectory.make("hil-hostile")
        defer { TemporaryDirectory.remove(scratch) }
        let url = try SampleRecords.record("first").write(toResultsDirectory: scratch)
        let copy = url.deletingLastPathComponent().appendingPathComponent("copy.json")
        try FileManager.default.copyItem(at: url, to: copy)
        let ran = try await Self.hil(["report", scratch.path, "--quiet"])
        #expect(ran.status == 3)
        // Read in name order: the record's own file ("PowerOffTests…") before "copy.json".
        #expect(ran.stderr.contains("hil report: \(copy.path): records the same test case as \(url.lastPathComponent) ("), "\(ran.stderr)")
        #expect(ran.stdout.contains("total=1 "), "\(ran.stdout)")
    }
}
