import Foundation
import HILResults
import Testing
import TestSupport

/// Fixture files and scratch directories for the runner's tests.
enum Fixtures {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// `Fixtures/<path>` in the test bundle.
    static func url(_ path: String) throws -> URL {
        guard let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw Missing(description: "the Fixtures resource directory is not in the test bundle")
        }
        let url = root.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(description: "no fixture \(path)") }
        return url
    }

    /// A parsed fixture event stream.
    static func run(_ name: String) throws -> SwiftTestingRun {
        let loaded = SwiftTestingRun.load(try url("events/\(name).jsonl"))
        #expect(loaded.errors.isEmpty, "fixture \(name): \(loaded.errors)")
        return loaded.run
    }

    /// A copy of a fixture directory in a fresh temp directory.
    static func copy(_ path: String) throws -> URL {
        let destination = try TemporaryDirectory.make("hil-fixture").appendingPathComponent("results", isDirectory: true)
        try FileManager.default.copyItem(at: try url(path), to: destination)
        return destination
    }
}

