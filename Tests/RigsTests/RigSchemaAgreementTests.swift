import Foundation
import StrictJSON
import Rigs
import Testing
import TestSupport

/// rigs/rig.schema.json against a validator we did not write, Python's jsonschema 4.23.0: the schema is a
/// valid draft-07 schema, every rig in rigs/ and rigs/checks/ validates, and on thousands of generated
/// variants of the rigs (RigVariants: misspelt keys, numbers replaced, values of other types, strings
/// replaced, members removed) jsonschema and our reader agree — every variant the reader accepts validates, and every
/// variant it refuses is refused by the schema too, unless the reader refused it for a check a schema
/// cannot express (`readerOnlyChecks`, declared in the table and each named in a `$comment` of the schema).
///
/// Serialized, and the variants made and read on a thread of their own at the lowest priority, jsonschema
/// niced (CPU-heavy). A process test: jsonschema runs in a python3 child (scripts/checks/check-rig-schema).
@Suite(.tags(.process), .serialized) struct RigSchemaAgreementTests {
    /// The rigs whose variants are checked: RigMutationTests' rigs, the secured and the process-switch
    /// benches, and a rig with every key (EveryKeyRig).
    static let rigs = RigMutationTests.rigs + ["rigs/simulated-secure.json", "rigs/btvirt-bumble.json"]

    /// Each number is also replaced by these: the limits of the fields' ranges and just beyond them,
    /// whole numbers written as 1.0 and 1e2, and beyond 2^64.
    static let numberProbes = RigMutationTests.outOfRange + ["0", "1", "1.0", "1e2", "0.0005", "7.4", "26", "-128", "256",
                                                              "600.5", "65536", "1000001", "3600001", "18446744073709551616"]

    /// Each string is also replaced by these, and by itself in capitals.
    static let stringProbes = ["", "x y"]

    /// Refusals by checks a schema cannot express, declared in the rig format's table beside the rule they
    /// concern (each a `$comment` of the schema): a variant the reader refuses with one of these may still validate.
    static let readerOnlyChecks = RigSchema.readerOnlyRefusals

    /// The fields the reader wants as plain digits (a UInt64 read exactly), from the table: 1.0 and 1e2 there are
    /// refused by the reader and are integers to the schema (its `$comment` says so).
    static let plainDigitFields = RigSchema.plainDigitKeys

    /// The variants of the rigs, each the first of its field pattern and change (budgets.connectMilliseconds
    /// = 0 is made once, from the first rig that has the field).
    static func variants(of sources: [RigSource]) throws -> [RigVariant] {
        var seen = Set<String>()
        var variants: [RigVariant] = []
        for source in sources {
            let node = try source.node()
            variants += RigVariants.misspeltKeys(node)
            variants += RigVariants.numbers(node, numberProbes, firstOfEachField: true)
            variants += RigVariants.otherTypes(node)
            variants += RigVariants.strings(node) { stringProbes + [$0.uppercased()] }
            variants += RigVariants.removals(node)
        }
        return variants.filter { seen.insert("\($0.pattern) \($0.change)").inserted }
    }

    /// Where a rig comes from: a file of the repository, or EveryKeyRig.
    enum RigSource: Sendable {
        case file(String)
        case everyKeyRig

        func node() throws -> JSONNode {
            switch self {
            case .file(let path): return try RigVariants.document(path)
            case .everyKeyRig: return try JSONParser.parse(EveryKeyRig.text)
            }
        }
    }

    @Test func theSchemaIsADraft7SchemaAndEveryRigInRigsValidates() async throws {
        let files = try RigSchemaTests.rigFiles().map(\.path)
        #expect(files.count >= 16, "\(files)")
        let ran = try await SchemaValidation.run(files)
        #expect(ran.status == 0, "\(ran.stdout)")
        let lines = ran.stdout.split(separator: "\n")
        #expect(lines.count == files.count && lines.allSatisfy { $0.hasSuffix(": valid") }, "\(ran.stdout)")
        let everyKey = try await SchemaValidation.validate([("every-key", EveryKeyRig.text)])
        #expect(everyKey["every-key"]?.isEmpty == true, "\(everyKey)")
        #expect(RigTests.message(Data(EveryKeyRig.text.utf8)) == "no error")
    }

    @Test func jsonschemaAndTheReaderAgreeOnEveryVariant() async throws {
        let sources = Self.rigs.map(RigSource.file) + [.everyKeyRig]
        let judged = try await atLowPriority {
            try Self.variants(of: sources).map { variant in
                let text = variant.text
                return (variant, text, RigTests.message(Data(text.utf8)))
            }
        }
        let schema = try await SchemaValidation.validate(judged.enumerated().map { (String($0.offset), $0.element.1) })
        var disagreements: [String] = []
        var counts = (bothAccept: 0, bothRefuse: 0, readerOnly: 0)
        for (index, (variant, _, message)) in judged.enumerated() {
            let violations = schema[String(index)] ?? []
            let what = "\(variant.path) (\(variant.change))"
            switch (message == "no error", violations.isEmpty) {
            case (true, true): counts.bothAccept += 1
            case (false, false): counts.bothRefuse += 1
            case (true, false):
                disagreements.append("\(what): the reader accepts it, the schema refuses it: \(violations.map(\.description).joined(separator: "; "))")
            case (false, true):
                if Self.isReaderOnly(message, variant) {
                    counts.readerOnly += 1
                } else {
                    disagreements.append("\(what): the schema accepts it, the reader refuses it: \(message)")
                }
            }
        }
        #expect(judged.count > 3000, "the generator made \(judged.count) variants")
        #expect(counts.bothAccept > 300 && counts.bothRefuse > 2000, "\(counts)")
        let disagreeing = disagreements.count
        #expect(disagreeing == 0, "jsonschema and the reader disagree on \(disagreeing) of \(judged.count) variants:\n\(disagreements.prefix(30).joined(separator: "\n"))")
    }

    /// Whether the reader refused `variant` for something the schema is not meant to express.
    static func isReaderOnly(_ message: String, _ variant: RigVariant) -> Bool {
        if readerOnlyChecks.contains(where: { message.contains($0) }) { return true }
        guard case .number(let value) = variant.change, ["1.0", "1e2"].contains(value) else { return false }
        return plainDigitFields.contains(where: { variant.path.hasSuffix(".\($0)") })
    }

    /// Typical editor mistakes in rigs/simulated.json, each refused by both, at the same field.
    @Test(arguments: [
        (#""connectMilliseconds": 1000"#, #""connectMilisecond": 1000"#, "budgets.connectMilisecond", "budgets"),
        (#""stabilityCycles": 10"#, #""stabilityCycles": "10""#, "budgets.stabilityCycles", "budgets.stabilityCycles"),
        (#""rssi": -52"#, #""rssi": -200"#, "simulation.controllers[1].rssi", "simulation.controllers[1].rssi"),
        (#""heart-rate",\#n          "battery""#, #""heartrate",\#n          "battery""#, "accessories[1].simulated.services[0]", "accessories[1].simulated.services[0]"),
        (#""moniker": "sim:central""#, #""moniker": "sim:central", "$schema": "./rig.schema.json""#, "adapter.$schema", "adapter"),
        (#""name": "simulated","#, "", "name", "(top level)"),
        (#""addressType": "random""#, #""addressType": "static""#, "simulation.controllers[1].addressType", "simulation.controllers[1].addressType"),
    ])
    func aTypicalEditorMistakeIsRefusedByBothAtTheSameField(original: String, mistake: String, readerPath: String, schemaPath: String) async throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("rigs/simulated.json"), encoding: .utf8)
        guard let range = text.range(of: original) else { Issue.record("rigs/simulated.json has no \(original)"); return }
        let changed = text.replacingCharacters(in: range, with: mistake)
        let message = RigTests.message(Data(changed.utf8))
        #expect(message.hasPrefix("\(readerPath): "), "\(message)")
        let violations = try await SchemaValidation.validate([("mistake", changed)])["mistake"] ?? []
        #expect(violations.contains { $0.path == schemaPath }, "jsonschema: \(violations)")
    }
}
