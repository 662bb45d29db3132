import Foundation
import Testing
@testable import Preflight

@Suite("iOS rules")
struct IOSRulesTests {
    @Test func aGoodPlistHasNoFindings() throws {
        let report = try Lint.ios(Lint.goodAlways, target: "15.0")
        #expect(report.findings.isEmpty)
        #expect(!report.fails(strict: true))
        #expect(report.rulesChecked.map(\.id) == ["IOS001", "IOS002", "IOS003", "IOS004", "IOS005", "IOS006", "IOS007"])
    }

    // MARK: IOS001

    @Test func alwaysKeyMissingIsAnError() throws {
        let report = try Lint.ios("<key>CFBundleName</key><string>X</string>", target: "15.0")
        #expect(report.ids == ["IOS001"])
        let finding = try #require(report.findings.first)
        #expect(finding.severity == .error)
        #expect(finding.message.contains("terminated"))
        #expect(finding.location.line == 4)  // the <dict>
        #expect(report.fails(strict: false))
    }

    @Test func alwaysKeyEmptyOrNotAStringIsAnError() throws {
        let empty = try Lint.ios("<key>NSBluetoothAlwaysUsageDescription</key><string></string>", target: "15.0")
        #expect(empty.ids == ["IOS001"])
        #expect(empty.findings.first?.message.contains("is empty") == true)
        let wrongType = try Lint.ios("<key>NSBluetoothAlwaysUsageDescription</key><true/>", target: "15.0")
        #expect(wrongType.ids == ["IOS001"])
        #expect(wrongType.findings.first?.message.contains("boolean, not a string") == true)
    }

    // MARK: IOS002 / IOS003

    @Test func peripheralKeyRequiredBeforeIOS13() throws {
        let report = try Lint.ios(Lint.goodAlways, target: "12.0")
        #expect(report.ids == ["IOS002"])
        #expect(report.findings.first?.message.contains("12.0") == true)
        #expect(try Lint.ios(Lint.goodAlways + Lint.goodPeripheral, target: "12.4").findings.isEmpty)
        let empty = try Lint.ios(Lint.goodAlways + "<key>NSBluetoothPeripheralUsageDescription</key><string/>", target: "11")
        #expect(empty.ids == ["IOS002"])
    }

    @Test func peripheralKeyDeprecatedFrom13() throws {
        let report = try Lint.ios(Lint.goodAlways + Lint.goodPeripheral, target: "13.0")
        #expect(report.ids == ["IOS003"])
        #expect(report.findings.first?.severity == .info)
        #expect(!report.fails(strict: true))
        #expect(try Lint.ios(Lint.goodAlways, target: "13.0").findings.isEmpty)
    }

    @Test func deploymentTargetComesFromMinimumOSVersionWhenNotGiven() throws {
        let report = try Lint.ios(Lint.goodAlways + "<key>MinimumOSVersion</key><string>12.1</string>")
        #expect(report.ids == ["IOS002"])
        #expect(report.notes.contains { $0.contains("12.1 read from MinimumOSVersion") })
        let unknown = try Lint.ios(Lint.goodAlways + "<key>MinimumOSVersion</key><string>$(IPHONEOS_DEPLOYMENT_TARGET)</string>")
        #expect(unknown.findings.isEmpty)
        #expect(unknown.notes.contains { $0.contains("IOS002 and IOS003 not checked") })
        // The flag wins over the plist.
        let flag = try Lint.ios(Lint.goodAlways + "<key>MinimumOSVersion</key><string>12.1</string>", target: "14")
        #expect(flag.findings.isEmpty)
    }

    // MARK: IOS004

    @Test(arguments: [
        ("   ", "is blank"),
        ("TODO", "placeholder"),
        ("Replace with appropriate message.", "placeholder"),
        ("Lorem ipsum dolor sit amet", "placeholder"),
        ("NSBluetoothAlwaysUsageDescription", "key's own name"),
        ("Privacy - Bluetooth Always Usage Description", "key's own name"),
        ("Bluetooth", "single word"),
        ("This app needs Bluetooth access.", "not what for"),
        ("$(PRODUCT_NAME) uses Bluetooth", "not what for"),
    ])
    func uninformativeDescriptionsWarn(text: String, reason: String) throws {
        let report = try Lint.ios("<key>NSBluetoothAlwaysUsageDescription</key><string>\(text)</string>", target: "15.0")
        #expect(report.ids == ["IOS004"], "\(text)")
        #expect(report.findings.first?.message.contains(reason) == true, "\(report.findings.first?.message ?? "")")
        #expect(report.findings.first?.severity == .warning)
        #expect(!report.fails(strict: false))
        #expect(report.fails(strict: true))
    }

    @Test(arguments: [
        "Connects to your heart-rate strap to record workouts.",
        "$(PRODUCT_NAME) finds your bike lock when you walk up to it.",
        "$(BLUETOOTH_USAGE_DESCRIPTION)",
        "Verbindet sich mit deinem Pulsgurt.",
    ])
    func informativeDescriptionsPass(text: String) throws {
        #expect(try Lint.ios("<key>NSBluetoothAlwaysUsageDescription</key><string>\(text)</string>", target: "15.0").findings.isEmpty)
    }

    @Test func peripheralDescriptionIsJudgedToo() throws {
        let report = try Lint.ios(Lint.goodAlways + "<key>NSBluetoothPeripheralUsageDescription</key><string>FIXME</string>", target: "12.0")
        #expect(report.ids == ["IOS004"])
        #expect(report.findings.first?.message.hasPrefix("NSBluetoothPeripheralUsageDescription") == true)
    }

    // MARK: IOS005 / IOS006

    @Test func backgroundUseNeedsItsMode() throws {
        let none = try Lint.ios(Lint.goodAlways, target: "15.0", uses: [.central, .backgroundCentral, .backgroundPeripheral])
        #expect(none.ids == ["IOS005", "IOS005"])
        #expect(none.findings.contains { $0.message.contains("bluetooth-central (\"Uses Bluetooth LE accessories\")") })
        #expect(none.findings.contains { $0.message.contains("bluetooth-peripheral (\"Acts as a Bluetooth LE accessory\")") })

        let centralOnly = try Lint.ios(Lint.goodAlways + "<key>UIBackgroundModes</key><array><string>bluetooth-central</string></array>",
                                       target: "15.0", uses: [.backgroundCentral, .backgroundPeripheral])
        #expect(centralOnly.ids == ["IOS005"])
        #expect(centralOnly.findings.first?.location.line != nil)

        let both = try Lint.ios(Lint.goodAlways + "<key>UIBackgroundModes</key><array><string>bluetooth-central</string><string>bluetooth-peripheral</string></array>",
                                target: "15.0", uses: [.backgroundCentral, .backgroundPeripheral])
        #expect(both.findings.isEmpty)
    }

    @Test func backgroundUseIsInferredFromModesWhenUsesIsAbsent() throws {
        let report = try Lint.ios(Lint.goodAlways + "<key>UIBackgroundModes</key><array><string>bluetooth-peripheral</string></array>",
                                  target: "15.0", uses: nil)
        #expect(report.findings.isEmpty)
        #expect(report.notes.contains { $0.contains("background-peripheral") && $0.contains("inferred") })
    }

    @Test(arguments: [
        ("bluetooth_central", "bluetooth-central"),
        ("Bluetooth-Central", "bluetooth-central"),
        ("bluetooth-centrals", "bluetooth-central"),
        ("blutooth-peripheral", "bluetooth-peripheral"),
        ("Uses Bluetooth LE accessories", "bluetooth-central"),
        ("Acts as a Bluetooth LE accessory", "bluetooth-peripheral"),
        ("bluetooth-le", "bluetooth-central"),
    ])
    func misspeltModesAreErrors(mode: String, suggestion: String) throws {
        let report = try Lint.ios(Lint.goodAlways + "<key>UIBackgroundModes</key><array><string>\(mode)</string></array>", target: "15.0", uses: [.central])
        #expect(report.ids == ["IOS006"])
        #expect(report.findings.first?.message.contains("did you mean \(suggestion)?") == true, "\(report.findings.first?.message ?? "")")
    }

    @Test func otherModesAreNotBluetoothMisspellings() throws {
        let modes = ["audio", "location", "voip", "fetch", "remote-notification", "processing", "external-accessory", "my-custom-mode"]
        let entries = modes.map { "<string>\($0)</string>" }.joined()
        #expect(try Lint.ios(Lint.goodAlways + "<key>UIBackgroundModes</key><array>\(entries)</array>", target: "15.0").findings.isEmpty)
    }

    // MARK: IOS007

    @Test func requiredBluetoothLECapabilityIsInfo() throws {
        let array = try Lint.ios(Lint.goodAlways + "<key>UIRequiredDeviceCapabilities</key><array><string>arm64</string><string>bluetooth-le</string></array>", target: "15.0")
        #expect(array.ids == ["IOS007"])
        #expect(array.findings.first?.severity == .info)
        let dictionary = try Lint.ios(Lint.goodAlways + "<key>UIRequiredDeviceCapabilities</key><dict><key>bluetooth-le</key><true/></dict>", target: "15.0")
        #expect(dictionary.ids == ["IOS007"])
        let without = try Lint.ios(Lint.goodAlways + "<key>UIRequiredDeviceCapabilities</key><array><string>arm64</string></array>", target: "15.0")
        #expect(without.findings.isEmpty)
        let excluded = try Lint.ios(Lint.goodAlways + "<key>UIRequiredDeviceCapabilities</key><dict><key>bluetooth-le</key><false/></dict>", target: "15.0")
        #expect(excluded.findings.isEmpty)
    }

    // MARK: IOS008

    @Test func explainAddsOneInfoFinding() throws {
        let report = try Lint.ios(Lint.goodAlways, target: "15.0", explain: true)
        #expect(report.ids == ["IOS008"])
        #expect(report.findings.first?.message.contains("first time the app creates a CBCentralManager") == true)
        #expect(report.rulesChecked.count == 8)
        #expect(!report.fails(strict: true))
    }

    // MARK: Fixtures

    @Test func realisticSourcePlistPasses() throws {
        let report = try Preflight.lintIOS(path: try Fixture.path("ios/Info-source.plist"), options: IOSOptions(deploymentTarget: OSVersion("15.0"), uses: [.central, .backgroundCentral]))
        #expect(report.findings.isEmpty)
    }

    @Test func problemPlistFiresEachRuleAtItsLine() throws {
        let report = try Preflight.lintIOS(path: try Fixture.path("ios/Info-problems.plist"), options: IOSOptions(uses: [.central, .backgroundCentral]))
        #expect(report.ids == ["IOS001", "IOS004", "IOS005", "IOS006", "IOS006", "IOS007"])
        #expect(report.findings("IOS004").first?.location.line == 9)
        #expect(report.findings("IOS006").map(\.location.line) == [14, 15])
        #expect(report.findings("IOS007").first?.location.line == 17)
        // Target 11.0 from MinimumOSVersion: the Peripheral key is present (if useless), so no IOS002.
        #expect(report.findings("IOS002").isEmpty)
    }
}
