import Foundation

/// The readers `preflight-fuzz` drives, one input at a time (Sources/preflight-fuzz, scripts/fuzz/fuzz-preflight).
/// The replay test runs the committed corpora (Tests/PreflightTests/Fixtures/fuzz/<target>/) through the
/// same entry point, so a crash the fuzzer found stays a regression test.
package enum FuzzTarget: String, CaseIterable, Sendable {
    /// An Info.plist as XML (the reader detects binary and OpenStep too), then the iOS rules.
    case xmlPlist = "xml-plist"
    /// An Info.plist as a binary property list, then the iOS rules.
    case binaryPlist = "binary-plist"
    /// A compiled AndroidManifest.xml (binary XML), then the Android rules.
    case axml
    /// A zip archive: the central directory, every entry extracted (stored or inflated, CRC-checked), and
    /// the bytes as a raw DEFLATE stream.
    case zip
    /// An AndroidManifest.xml as text, then the Android rules.
    case manifestXML = "manifest-xml"

    /// Runs `data` through the target's reader. A malformed input is a `PreflightError`, which counts as
    /// handled; a bug traps. Returns a number derived from what was read, so no work is optimized away.
    package func run(_ data: Data) -> Int {
        do {
            switch self {
            case .xmlPlist, .binaryPlist:
                return try Preflight.lintIOS(data: data, name: "Info.plist").findings.count
            case .axml:
                let root = try AXMLReader.parse(data, file: "AndroidManifest.xml")
                let manifest = try AndroidManifest(root, file: "AndroidManifest.xml")
                return AndroidLinter.lint(manifest, location: SourceLocation(file: "AndroidManifest.xml"), options: AndroidOptions()).findings.count
            case .zip:
                var total = (try? Inflate.decompress([UInt8](data), limit: 1 << 20).count) ?? 0
                let archive = try ZipArchive(data, file: "app.zip")
                for entry in archive.entries.prefix(64) {
                    total &+= (try? archive.extract(entry).count) ?? 0
                }
                return total
            case .manifestXML:
                return try Preflight.lintAndroid(data: data, name: "AndroidManifest.xml").findings.count
            }
        } catch {
            return error.description.utf8.count
        }
    }
}
