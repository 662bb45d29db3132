import Foundation
import FoundationXML
import Testing
@testable import Preflight

@Suite("Output formats")
struct FormatterTests {
    /// A report with one finding of each severity.
    static func mixedReport() throws -> Report {
        let body = Lint.modernBody.replacingOccurrences(of: Lint.permission("BLUETOOTH_CONNECT"), with: "")
            .replacingOccurrences(of: Lint.permission("BLUETOOTH", "android:maxSdkVersion=\"30\""), with: Lint.permission("BLUETOOTH"))
            .replacingOccurrences(of: "android:required=\"false\"", with: "android:required=\"true\"")
        return try Lint.android(body, sdk: nil, uses: [.scan, .connect])
    }

    @Test func textGroupsBySeverityWithRuleLocationAndSource() throws {
        let report = try Self.mixedReport()
        #expect(report.ids == ["AND002", "AND004", "AND013"])
        let text = ReportFormat.text.render(report)
        let errors = try #require(text.range(of: "Errors (1)"))
        let warnings = try #require(text.range(of: "Warnings (1)"))
        let info = try #require(text.range(of: "Info (1)"))
        #expect(errors.lowerBound < warnings.lowerBound && warnings.lowerBound < info.lowerBound)
        #expect(text.contains("AndroidManifest.xml:2:1: error AND002 BluetoothConnectMissing"))
        #expect(text.contains("AndroidManifest.xml:5:5: warning AND004 LegacyPermissionNotCapped"))
        #expect(text.contains("source: Google: Android developers, Bluetooth permissions <https://developer.android.com/develop/connectivity/bluetooth/bt-permissions>"))
        #expect(text.contains("note: targetSdk unknown"))
        #expect(text.hasSuffix("FAILED: 1 error, 1 warning, 1 info (16 rules checked)\n"))
        let clean = ReportFormat.text.render(try Lint.android(Lint.modernBody))
        #expect(clean.hasSuffix("passed: 0 errors, 0 warnings, 0 info (16 rules checked)\n"))
        #expect(!clean.contains("Errors ("))
    }

    @Test func jsonCarriesFindingsCountsAndNotes() throws {
        let json = ReportFormat.json.render(try Self.mixedReport())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["platform"] as? String == "android")
        #expect(object["file"] as? String == "AndroidManifest.xml")
        let counts = try #require(object["counts"] as? [String: Int])
        #expect(counts == ["error": 1, "warning": 1, "info": 1])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { $0["ruleId"] as? String } == ["AND002", "AND004", "AND013"])
        #expect(findings[1]["line"] as? Int == 5)
        #expect(findings[1]["severity"] as? String == "warning")
        let sources = try #require(findings[0]["sources"] as? [[String: String]])
        #expect(sources.first?["url"]?.hasPrefix("https://developer.android.com/") == true)
        #expect((object["rulesChecked"] as? [String])?.count == 16)
        #expect((object["notes"] as? [String])?.isEmpty == false)
    }

    @Test func sarifFollowsTheSchemaShapeGitHubReads() throws {
        let report = try Self.mixedReport()
        let sarif = ReportFormat.sarif.render(report)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "hil preflight")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.count == 16)
        for rule in rules {
            #expect((rule["id"] as? String)?.hasPrefix("AND") == true)
            #expect((rule["shortDescription"] as? [String: String])?["text"]?.isEmpty == false)
            #expect((rule["helpUri"] as? String)?.hasPrefix("https://") == true)
            let level = (rule["defaultConfiguration"] as? [String: String])?["level"]
            #expect(["error", "warning", "note"].contains(level ?? ""))
        }
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.map { $0["level"] as? String } == ["error", "warning", "note"])
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
            let locations = try #require(result["locations"] as? [[String: Any]])
            let physical = try #require(locations.first?["physicalLocation"] as? [String: Any])
            #expect((physical["artifactLocation"] as? [String: String])?["uri"] == "AndroidManifest.xml")
            let region = try #require(physical["region"] as? [String: Int])
            #expect((region["startLine"] ?? 0) >= 1)
        }
        let invocation = try #require((runs[0]["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == true)
        #expect((invocation["toolExecutionNotifications"] as? [[String: Any]])?.isEmpty == false)
    }

    @Test func sarifForAnArchiveEntryIsAtLineOneAndNamesTheEntry() throws {
        let report = try Preflight.lintIOS(path: try Fixture.path("ios/Sample.ipa"), options: IOSOptions(uses: [.central]))
        let log = try #require(try JSONSerialization.jsonObject(with: Data(ReportFormat.sarif.render(report).utf8)) as? [String: Any])
        let result = try #require(((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        let location = try #require((result["locations"] as? [[String: Any]])?.first)
        let physical = try #require(location["physicalLocation"] as? [String: Any])
        #expect(physical["region"] as? [String: Int] == ["startLine": 1])
        #expect((physical["artifactLocation"] as? [String: String])?["uri"]?.hasSuffix("Sample.ipa") == true)
        let logical = try #require((location["logicalLocations"] as? [[String: String]])?.first)
        #expect(logical["fullyQualifiedName"] == "Payload/Sample.app/Info.plist")
    }

    @Test func sarifURIsAreRelativeOrFileURIsAndEncoded() {
        #expect(SARIFFormatter.uri("app/src/main/AndroidManifest.xml") == "app/src/main/AndroidManifest.xml")
        #expect(SARIFFormatter.uri("./My App/Info.plist") == "My%20App/Info.plist")
        #expect(SARIFFormatter.uri("/tmp/a b.xml") == "file:///tmp/a%20b.xml")
        #expect(SARIFFormatter.uri("C:\\x\\y.xml") == "C%3A/x/y.xml")
    }

    @Test func junitHasOneTestcasePerRuleAndFailsErrors() throws {
        let report = try Self.mixedReport()
        let xml = ReportFormat.junit.render(report)
        let root = try XMLTextReader.parse(Data(xml.utf8), file: "junit.xml")  // well-formed
        #expect(root.localName == "testsuites")
        #expect(root.attribute("tests", namespace: nil) == "16")
        #expect(root.attribute("failures", namespace: nil) == "1")
        let suite = try #require(root.children.first)
        let cases = suite.children(named: "testcase")
        #expect(cases.count == 16)
        let failing = cases.filter { !$0.children(named: "failure").isEmpty }
        #expect(failing.map { $0.attribute("name", namespace: nil) } == ["AND002 BluetoothConnectMissing"])
        #expect(failing.first?.children(named: "failure").first?.text.contains("Source: Google") == true)
        // The warning and the info are reported but do not fail without --strict.
        let warned = try #require(cases.first { $0.attribute("name", namespace: nil) == "AND004 LegacyPermissionNotCapped" })
        #expect(warned.children(named: "failure").isEmpty)
        #expect(warned.children(named: "system-out").first?.text.hasPrefix("warning: AndroidManifest.xml:5:5") == true)

        let strict = try XMLTextReader.parse(Data(ReportFormat.junit.render(report, strict: true).utf8), file: "junit.xml")
        #expect(strict.attribute("failures", namespace: nil) == "2")
    }

    /// A message, a file name and a note with markup, line breaks, a tab and a control character read back
    /// through libxml2 (Foundation's `XMLDocument`) as written, the control character as U+FFFD.
    @Test func junitKeepsMarkupAndLineBreaksOfMessagesAndNamesAsLibxml2ReadsThem() throws {
        let mixed = try Self.mixedReport()
        let rule = try #require(mixed.rulesChecked.first { $0.severity == .error })
        let hostile = "<key> & \"value\"\n\tsecond line 'quoted'\u{1}"
        let location = SourceLocation(file: "My <App>/Info & co.plist", line: 3)
        let report = Report(platform: mixed.platform, location: location, rulesChecked: [rule],
                            findings: [Finding(rule: rule, message: hostile, location: location)], notes: [hostile])
        let document = try XMLDocument(xmlString: ReportFormat.junit.render(report), options: [])
        let readBack = hostile.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}")
        let failure = try #require(try document.nodes(forXPath: "//testcase/failure").first as? XMLElement)
        #expect(failure.attribute(forName: "message")?.stringValue == readBack)
        #expect(failure.stringValue?.contains(readBack) == true)
        let properties = try document.nodes(forXPath: "//property").compactMap { $0 as? XMLElement }
        #expect(properties.map { $0.attribute(forName: "value")?.stringValue } == [location.description, readBack])
    }

    @Test func strictFailsOnWarningsOnly() throws {
        let warningOnly = try Lint.android(Lint.modernBody.replacingOccurrences(of: "android:usesPermissionFlags=\"neverForLocation\"", with: ""))
        #expect(warningOnly.ids == ["AND007"])
        #expect(!warningOnly.fails(strict: false))
        #expect(warningOnly.fails(strict: true))
        let infoOnly = try Lint.android(Lint.modernBody, explain: true)
        #expect(!infoOnly.fails(strict: true))
    }

    @Test func everyRuleHasAUniqueStableIDAndASource() {
        let ids = RuleCatalog.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids == (1...8).map { String(format: "IOS%03d", $0) } + (1...17).map { String(format: "AND%03d", $0) })
        for rule in RuleCatalog.all {
            #expect(!rule.sources.isEmpty)
            #expect(rule.sources.allSatisfy { $0.url.hasPrefix("https://developer.") })
            #expect(rule.summary.hasSuffix(".") || rule.summary.hasSuffix(")"))
            #expect(RuleCatalog.rule(id: rule.id) == rule)
        }
    }

    @Test func versionsCompareNumerically() {
        #expect(OSVersion("12.4")! < OSVersion("13")!)
        #expect(OSVersion("13.0") == OSVersion("13"))
        #expect(OSVersion("9.3.5")! < OSVersion("10.0")!)
        #expect(OSVersion("12.") == nil && OSVersion("abc") == nil && OSVersion("") == nil && OSVersion("-1") == nil)
    }
}
