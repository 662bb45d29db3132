import Foundation
import Testing
import Preflight

/// The fuzz corpora (Fixtures/fuzz/<target>/: the seeds, and every input a fuzzer found crashing) through
/// the same entry point `preflight-fuzz` drives: a crash found once stays fixed. Cheap: a plain build, a
/// few dozen small files.
@Suite("Fuzz corpus replay")
struct FuzzReplayTests {
    /// Each file runs through without a trap; a hang would be scripts/test's phase limit's, naming this test.
    @Test(arguments: FuzzTarget.allCases)
    func everyCorpusFileRunsThroughItsTarget(target: FuzzTarget) throws {
        let directory = try Fixture.url("fuzz/\(target.rawValue)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(!names.isEmpty, "no seeds for \(target.rawValue)")
        for name in names {
            _ = target.run(try Data(contentsOf: directory.appendingPathComponent(name)))
        }
    }

    @Test func seedsAreReadableInputsNotJustNoise() throws {
        // The seeds other than the malformed ones must lint: a fuzzer starting from garbage explores little.
        #expect(throws: Never.self) { try Preflight.lintIOS(data: try Fixture.data("fuzz/binary-plist/Info-binary.plist"), name: "p") }
        #expect(throws: Never.self) { try Preflight.lintIOS(data: try Fixture.data("fuzz/zip/small.ipa"), name: "small.ipa") }
        #expect(throws: Never.self) { try Preflight.lintAndroid(data: try Fixture.data("fuzz/zip/small.apk"), name: "small.apk") }
        let report = try Preflight.lintAndroid(data: try Fixture.data("fuzz/axml/manifest.axml"), name: "m")
        #expect(report.findings.count >= 1)
    }

    /// Found by `scripts/fuzz/fuzz-preflight` (xml-plist): "$($(" in a usage description took back a "$" that
    /// was never kept, removing the last character of an empty string (a trap).
    @Test func aBuildSettingInsideABuildSettingIsNotATrap() throws {
        let plist = """
            <plist><dict><key>NSBluetoothAlwaysUsageDescription</key><string>$($(PRODUCT_NAME)) finds your bike lock.</string>\
            <key>MinimumOSVersion</key><string>13.0</string></dict></plist>
            """
        let report = try Preflight.lintIOS(data: Data(plist.utf8), name: "Info.plist", options: IOSOptions(uses: [.central]))
        #expect(report.platform == .ios)
        #expect(try Fixture.data("fuzz/xml-plist/crash-usage-description-nested-build-setting.plist").count > 0)
    }
}
