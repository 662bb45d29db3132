import Foundation
import Rigs

/// `hil rig schema` (the rig file's JSON Schema, for editors), `hil rig doc` (its reference in Markdown) and `hil rig check FILE…` (rig files read by
/// the one rig reader, one line each).
enum RigCommand {
    static let usage = """
        usage: hil rig schema
               hil rig doc
               hil rig check RIG.json [RIG.json …]
        schema  print the JSON Schema (draft-07) of a rig file, as rigs/rig.schema.json holds it: an editor
                (VS Code, JetBrains) completes, describes and checks a rig file that says
                "$schema": "./rig.schema.json", or that its settings map to the schema (json.schemas)
        doc     print the rig file reference in Markdown (docs/rig-reference.md): every key of every object,
                its type, range, default and meaning, from the same table as the schema and the reader
        check   read each rig file as every command does: "FILE: ok (…)" on stdout, or the file's one-line
                error on stderr; exit 0 when every file is a usable rig, 3 otherwise
        """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        do {
            switch arguments.positional() {
            case "schema":
                try arguments.finish()
                StandardStreams.output(Data(RigSchema.text.utf8))
                return .success
            case "doc":
                try arguments.finish()
                StandardStreams.output(Data(RigSchema.reference.utf8))
                return .success
            case "check":
                var files: [String] = []
                while let file = arguments.positional() { files.append(file) }
                try arguments.finish()
                guard !files.isEmpty else { throw UsageError("missing the rig files to check") }
                return check(files)
            case let other:
                throw UsageError(other.map { "unknown rig command '\($0)': schema, doc or check" } ?? "missing a subcommand (schema, doc or check)")
            }
        } catch {
            return Diagnostics.usageError("rig", error)
        }
    }

    /// Reads each file with the rig reader and says what it is, or what is wrong with it.
    static func check(_ files: [String]) -> ExitStatus {
        var status = ExitStatus.success
        for file in files {
            do {
                let rig = try Rig.load(path: file)
                let simulated = rig.simulation.map { ", \($0.controllers.count) simulated controllers" } ?? ""
                print("\(file): ok (\(rig.name): adapter \(rig.adapter.moniker), \(rig.accessories.count) accessories, "
                      + "\(rig.powerSwitches.count) power switches\(simulated))")
            } catch {
                status = Diagnostics.fail("rig check", error.description, .usageError)
            }
        }
        return status
    }
}
