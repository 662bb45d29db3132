import Foundation
import Testing
import TestSupport
@testable import Preflight

/// The binary property list reader beside Python's plistlib (a child process): what we read, it reads alike.
@Suite("Binary property list reader against plistlib", .tags(.process))
struct BinaryPropertyListPlistlibTests {
    @Test func whatWeReadPythonPlistlibReadsAlike() async throws {
        // plistlib is in Python's standard library: the repository's .venv, else python3 on PATH.
        let venv = SchemaValidator.repository.appendingPathComponent(".venv/bin/python").path
        let python = FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
        let mutants = try BinaryPropertyListTests.mutants().filter { $0.data.starts(with: Array("bplist".utf8)) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bplist-mutants-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, mutant) in mutants.enumerated() { try mutant.data.write(to: directory.appendingPathComponent("\(index)")) }
        // For each mutant: the sorted top-level keys with their string values, or "error".
        let script = """
            import plistlib, sys, os, json
            d = sys.argv[1]
            for i in range(len(os.listdir(d))):
                try:
                    v = plistlib.loads(open(os.path.join(d, str(i)), "rb").read(), fmt=plistlib.FMT_BINARY)
                    if not isinstance(v, dict): raise ValueError("not a dict")
                    print(json.dumps(sorted([str(k), v[k] if isinstance(v[k], str) else None] for k in v)))
                except Exception:
                    print("error")
            """
        let result = await SchemaValidator.run(python, ["-c", script, directory.path])
        try #require(result.status == 0, "\(python) could not run plistlib: \(result.output.suffix(400))")
        let answers = result.output.split(separator: "\n").map(String.init)
        try #require(answers.count == mutants.count, "python answered \(answers.count) of \(mutants.count)")
        // We are stricter than plistlib (dictionary keys must be strings, as CoreFoundation's are; no loops),
        // so the check is one way: what we read, plistlib reads too, to the same strings.
        var read = 0
        for (mutant, answer) in zip(mutants, answers) {
            guard let (root, _) = try? PropertyListReader.readDictionary(mutant.data, file: "m"), let entries = root.value.dictionary else { continue }
            read += 1
            let pairs: [[Any]] = entries.sorted { $0.key < $1.key }.map { [$0.key, $0.value.value.string ?? NSNull()] }
            let ours = String(decoding: try JSONSerialization.data(withJSONObject: pairs), as: UTF8.self)
            let theirs = try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [[Any]]
            #expect(theirs.map { String(decoding: (try? JSONSerialization.data(withJSONObject: $0)) ?? Data(), as: UTF8.self) } == ours,
                    "\(mutant.name): plistlib \(answer.prefix(120))")
        }
        #expect(read > 100)
    }
}
