import Foundation
import Testing

/// Access to Tests/PreflightTests/Fixtures (copied as a resource folder).
enum Fixture {
    /// The URL of a fixture, e.g. `Fixture.url("android/merged-release.xml")`.
    static func url(_ relativePath: String) throws -> URL {
        let base = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil), "Fixtures folder missing from the test bundle")
        return base.appendingPathComponent(relativePath)
    }

    /// The bytes of a fixture.
    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// The path of a fixture, as the CLI would be given it.
    static func path(_ relativePath: String) throws -> String {
        try url(relativePath).path
    }
}

/// The recipes of scripts/preflight/make_fixtures.py, rebuilt to check extracted contents byte for byte.
enum CorpusRecipe {
    static func text() -> Data {
        var text = ""
        for i in 0..<2000 {
            text += "line \(i): <uses-permission android:name=\"android.permission.PERM_\(i % 37)\"/> value=\(i * i % 1009)\n"
        }
        return Data(text.utf8)
    }

    static func randomBytes(_ count: Int, seed: Int) -> Data {
        var state = seed
        var out = Data(capacity: count)
        for _ in 0..<count {
            state = (state &* 1_103_515_245 &+ 12345) & 0x7FFF_FFFF
            out.append(UInt8((state >> 16) & 0xFF))
        }
        return out
    }

    static func entries() -> [(String, Data)] {
        let text = text()
        return [
            ("stored.txt", text.prefix(5000)),
            ("level1.txt", text),
            ("level6.txt", text),
            ("level9.txt", text),
            ("runs.bin", Data(repeating: 0x61, count: 70000) + Data(repeating: 0x62, count: 3) + Data(repeating: 0x61, count: 258)),
            ("random.bin", randomBytes(40000, seed: 7)),
            ("empty.txt", Data()),
            ("one.txt", Data("x".utf8)),
            ("dir/nested/name with spaces.txt", Data("nested entry\n".utf8)),
        ]
    }
}
