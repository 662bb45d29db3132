import Foundation
import StrictJSON
@testable import Rigs
import Testing
import TestSupport

/// The schema editors use is the one hil embeds, every rig in rigs/ and rigs/checks/ names it, and the reader
/// takes `"$schema"` at the top level only, as a string.
@Suite struct RigSchemaTests {
    @Test func theEmbeddedSchemaIsTheFileInRigs() throws {
        let file = try String(contentsOf: repositoryRoot.appendingPathComponent("rigs/rig.schema.json"), encoding: .utf8)
        #expect(RigSchema.text == file, "rigs/rig.schema.json differs from the schema written from the rig format's table: run `hil rig schema > rigs/rig.schema.json`")
    }

    @Test func theReferenceIsTheFileInDocs() throws {
        let file = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/rig-reference.md"), encoding: .utf8)
        #expect(RigSchema.reference == file, "docs/rig-reference.md differs from the reference written from the rig format's table: run `hil rig doc > docs/rig-reference.md`")
    }

    /// The checks only the reader makes are declared in the table, each with its `$comment` in the schema: 22,
    /// every one a check across fields, a regular expression compiled or a key file read.
    @Test func theReaderOnlyChecksAreDeclaredInTheTableAndCommentedInTheSchema() {
        let refusals = RigSchema.readerOnlyRefusals
        #expect(refusals.count == 22, "\(refusals)")
        #expect(Set(refusals).count == refusals.count)
        #expect(RigSchema.plainDigitKeys == ["leFeatures", "seed"])
        var notes: [ReaderNote] = []
        JSONRule(.object(RigFormatTable.Root.shape)).visit { notes += $0.notes }
        for note in notes where !note.refusals.isEmpty {
            #expect(RigSchema.text.contains(String(OrderedJSON.string(note.comment).compact.dropFirst().dropLast())), "\(note.comment)")
        }
    }

    /// Every rig file of the repository, sorted, with the `"$schema"` it must name: the users' examples in rigs/
    /// (`./rig.schema.json`) and the rigs, airs and expectations only the harness's checks run in rigs/checks/
    /// (`../rig.schema.json`); `*.expected.json` files are not rigs.
    static func rigFiles() throws -> [(path: String, schema: String)] {
        try [("rigs", "./rig.schema.json"), ("rigs/checks", "../rig.schema.json")].flatMap { folder, schema in
            let directory = repositoryRoot.appendingPathComponent(folder)
            return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".expected.json") && $0 != "rig.schema.json" }
                .map { (directory.appendingPathComponent($0).path, schema) }
        }
    }

    @Test func everyRigInRigsNamesTheSchemaAndLoads() throws {
        let files = try Self.rigFiles()
        #expect(files.count >= 16, "\(files.map(\.path))")
        #expect(files.filter { $0.schema == "./rig.schema.json" }.count >= 5, "\(files.map(\.path))")
        for (path, schema) in files {
            _ = try Rig.load(path: path)
            let document = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            guard case .object(let members) = document.value else { Issue.record("\(path) is not an object"); continue }
            #expect(members.first?.key == "$schema" && members.first?.value.value == .string(schema), "\(path)")
            #expect(FileManager.default.fileExists(atPath: URL(fileURLWithPath: path).deletingLastPathComponent()
                .appendingPathComponent(schema).standardizedFileURL.path), "\(path): \(schema) names no file")
        }
    }

    @Test(arguments: [
        (#"{"$schema": 5, "name": "t", "adapter": {"moniker": "usb:0"}, "accessories": []}"#,
         #"$schema: expected a string naming the rig file's JSON Schema, like "./rig.schema.json", found 5"#),
        (#"{"name": "t", "adapter": {"moniker": "usb:0", "$schema": "./rig.schema.json"}, "accessories": []}"#,
         "adapter.$schema: unknown key (known: moniker, power)"),
        (#"{"schema": "./rig.schema.json", "name": "t", "adapter": {"moniker": "usb:0"}, "accessories": []}"#,
         "schema: unknown key; did you mean $schema?"),
        (#"{"$schema": "", "name": "t", "adapter": {"moniker": "usb:0"}, "accessories": []}"#, "no error"),
    ])
    func schemaIsATopLevelString(rig: String, expected: String) {
        #expect(RigTests.message(Data(rig.utf8)) == expected)
    }
}
