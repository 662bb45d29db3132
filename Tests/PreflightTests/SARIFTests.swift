import Foundation
import Testing
@testable import Preflight

/// SARIF output: its URIs and regions. (Checked against the OASIS SARIF 2.1.0 schema by Python's jsonschema:
/// `SARIFSchemaTests`.)
@Suite("SARIF output")
struct SARIFTests {
    typealias JSON = [String: Any]

    /// The broken APK of ArchiveLintTests: three findings in a binary manifest inside an archive.
    static func apkReport() throws -> Report {
        var broken = ArchiveLintTests.modernManifest()
        broken.children.remove(at: 6)
        broken.children.append(ArchiveLintTests.permission("BLUETOOTH_CONECT", line: 14))
        return try Preflight.lintAndroid(data: ArchiveLintTests.apk(broken), name: "app-release.apk", options: AndroidOptions(uses: [.scan, .connect]))
    }

    /// One report per kind of input that has no lines of its own: IPA, binary plist, APK.
    static func linelessReports() throws -> [(String, Report)] {
        [("ipa", try Preflight.lintIOS(path: try Fixture.path("ios/Sample.ipa"), options: IOSOptions(uses: [.central, .backgroundCentral]))),
         ("binary plist", try Preflight.lintIOS(path: try Fixture.path("ios/Info-binary.plist"), options: IOSOptions(uses: [.central, .peripheral]))),
         ("apk", try apkReport())]
    }

    static func log(_ sarif: String) throws -> JSON {
        try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? JSON)
    }

    static func run(_ log: JSON) throws -> JSON { try #require((log["runs"] as? [JSON])?.first) }

    static func physicalLocations(_ run: JSON) throws -> [JSON] {
        let results = try #require(run["results"] as? [JSON])
        return try results.map { result in
            let location = try #require((result["locations"] as? [JSON])?.first)
            return try #require(location["physicalLocation"] as? JSON)
        }
    }

    @Test(arguments: ["ipa", "binary plist", "apk"])
    func everyResultHasARegionWhereTheInputHasNoLines(kind: String) throws {
        let report = try #require(try Self.linelessReports().first { $0.0 == kind }?.1)
        let locations = try Self.physicalLocations(try Self.run(try Self.log(ReportFormat.sarif.render(report))))
        #expect(!locations.isEmpty)
        #expect(locations.count == report.findings.count)
        for physical in locations {
            let region = try #require(physical["region"] as? [String: Int])
            #expect(region["startLine"] == 1)
        }
    }

    /// A temporary repository: a directory with `.git`, holding app/src/main/AndroidManifest.xml.
    static func repository(gitDirectory: Bool = true) throws -> (root: URL, manifest: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sarif-repo-\(UUID().uuidString)").resolvingSymlinksInPath()
        let main = root.appendingPathComponent("app/src/main")
        try FileManager.default.createDirectory(at: main, withIntermediateDirectories: true)
        if gitDirectory { try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"), withIntermediateDirectories: true) }
        let manifest = main.appendingPathComponent("AndroidManifest.xml")
        try Fixture.data("android/legacy-app.xml").write(to: manifest)
        return (root, manifest)
    }

    @Test func urisAreRelativeToTheRepositoryHoldingTheInput() throws {
        let (root, manifest) = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        let report = try Preflight.lintAndroid(path: manifest.path, options: AndroidOptions())
        let run = try Self.run(try Self.log(ReportFormat.sarif.render(report)))
        let locations = try Self.physicalLocations(run)
        #expect(!locations.isEmpty)
        for physical in locations {
            let artifact = try #require(physical["artifactLocation"] as? [String: String])
            #expect(artifact == ["uri": "app/src/main/AndroidManifest.xml", "uriBaseId": "%SRCROOT%"])
        }
        let base = try #require((run["originalUriBaseIds"] as? [String: [String: String]])?["%SRCROOT%"]?["uri"])
        #expect(base == URL(fileURLWithPath: root.path, isDirectory: true).absoluteString)
        #expect(URL(string: "app/src/main/AndroidManifest.xml", relativeTo: URL(string: base))?.path == manifest.path)
    }

    @Test func rootOptionSetsTheBaseAndAFileOutsideItGetsAnAbsoluteURI() throws {
        let (root, manifest) = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        let report = try Preflight.lintAndroid(path: manifest.path, options: AndroidOptions())
        let inside = try Self.run(try Self.log(ReportFormat.sarif.render(report, root: SourceRoot(directory: root.appendingPathComponent("app").path))))
        let artifact = try #require(try Self.physicalLocations(inside).first?["artifactLocation"] as? [String: String])
        #expect(artifact == ["uri": "src/main/AndroidManifest.xml", "uriBaseId": "%SRCROOT%"])

        let elsewhere = root.appendingPathComponent("elsewhere")
        let outside = try Self.run(try Self.log(ReportFormat.sarif.render(report, root: SourceRoot(directory: elsewhere.path))))
        let absolute = try #require(try Self.physicalLocations(outside).first?["artifactLocation"] as? [String: String])
        #expect(absolute == ["uri": manifest.absoluteString])
        #expect(outside["originalUriBaseIds"] == nil)
    }

    @Test func withoutAGitDirectoryTheRootIsTheInputsDirectory() throws {
        let (root, manifest) = try Self.repository(gitDirectory: false)
        defer { try? FileManager.default.removeItem(at: root) }
        let found = SourceRoot.repository(containing: manifest.path)
        #expect(found.path == manifest.deletingLastPathComponent().path)
        // A worktree's .git is a file, and counts too.
        try Data("gitdir: /elsewhere\n".utf8).write(to: root.appendingPathComponent("app/.git"))
        #expect(SourceRoot.repository(containing: manifest.path).path == root.appendingPathComponent("app").path)
    }

    @Test func informationAndHelpURIsAreTheOfficialDocumentation() throws {
        for (report, host) in [(try FormatterTests.mixedReport(), "developer.android.com"),
                               (try Preflight.lintIOS(path: try Fixture.path("ios/Info-problems.plist"), options: IOSOptions()), "developer.apple.com")] {
            let driver = try #require((try Self.run(try Self.log(ReportFormat.sarif.render(report)))["tool"] as? JSON)?["driver"] as? JSON)
            let informationText = try #require(driver["informationUri"] as? String)
            let information = try #require(URL(string: informationText))
            #expect(information.scheme == "https" && information.host == host)
            let rules = try #require(driver["rules"] as? [JSON])
            #expect(!rules.isEmpty)
            for rule in rules {
                let helpText = try #require(rule["helpUri"] as? String)
                let help = try #require(URL(string: helpText))
                #expect(help.scheme == "https" && help.host?.hasPrefix("developer.") == true)
            }
        }
    }
}
