import Foundation
import Testing
@testable import Preflight

@Suite("Android rules")
struct AndroidRulesTests {
    typealias L = Lint

    @Test func aModernManifestHasNoFindings() throws {
        let report = try L.android(L.modernBody)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        #expect(report.rulesChecked.count == 16)
    }

    // MARK: AND001–AND003

    @Test func newPermissionsRequiredWhenTargeting31() throws {
        let body = L.modernBody.replacingOccurrences(of: L.permission("BLUETOOTH_CONNECT"), with: "")
            .replacingOccurrences(of: L.permission("BLUETOOTH_SCAN", "android:usesPermissionFlags=\"neverForLocation\""), with: "")
        let report = try L.android(body, uses: [.scan, .connect, .advertise])
        #expect(report.ids == ["AND001", "AND002", "AND003"])
        #expect(report.findings.allSatisfy { $0.severity == .error })
        #expect(report.findings("AND001").first?.message.contains("BLUETOOTH_SCAN is not declared (needed on API 31 and later)") == true)
        // Not needed when the app does not do it.
        #expect(try L.android(body, uses: []).findings.filter { ["AND001", "AND002", "AND003"].contains($0.rule.id) }.isEmpty)
    }

    @Test func newPermissionsNotRequiredWhenTargeting30() throws {
        let legacy = [L.permission("BLUETOOTH"), L.permission("BLUETOOTH_ADMIN"), L.permission("ACCESS_FINE_LOCATION"), L.feature].joined(separator: "\n")
        let report = try L.android(legacy, sdk: (23, 30), uses: [.scan, .connect, .advertise])
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
    }

    @Test func aCappedNewPermissionDoesNotCount() throws {
        let body = L.modernBody.replacingOccurrences(of: L.permission("BLUETOOTH_CONNECT"), with: L.permission("BLUETOOTH_CONNECT", "android:maxSdkVersion=\"32\""))
        let report = try L.android(body)
        #expect(report.ids == ["AND002"])
        #expect(report.findings.first?.message.contains("capped at android:maxSdkVersion=\"32\"") == true)
        #expect(report.findings.first?.location.line == 9)
    }

    // MARK: AND004

    @Test func legacyPermissionsMustBeCappedWhenTargeting31() throws {
        let body = L.modernBody.replacingOccurrences(of: L.permission("BLUETOOTH", "android:maxSdkVersion=\"30\""), with: L.permission("BLUETOOTH"))
            .replacingOccurrences(of: L.permission("BLUETOOTH_ADMIN", "android:maxSdkVersion=\"30\""), with: L.permission("BLUETOOTH_ADMIN", "android:maxSdkVersion=\"33\""))
        let report = try L.android(body)
        #expect(report.ids == ["AND004", "AND004"])
        #expect(report.findings.map(\.location.line) == [5, 6])
        #expect(report.findings.allSatisfy { $0.severity == .warning })
        // Targeting 30: the old permissions are the only ones, uncapped is right.
        #expect(try L.android(body, sdk: (23, 30)).findings("AND004").isEmpty)
    }

    // MARK: AND005

    @Test func legacyPermissionsNeededWhileMinSdkIsAtMost30() throws {
        let body = L.modernBody.replacingOccurrences(of: L.permission("BLUETOOTH", "android:maxSdkVersion=\"30\""), with: "")
            .replacingOccurrences(of: L.permission("BLUETOOTH_ADMIN", "android:maxSdkVersion=\"30\""), with: "")
        let report = try L.android(body)
        #expect(report.ids == ["AND005", "AND005"])
        #expect(report.findings.contains { $0.message.contains("BLUETOOTH is not declared") && $0.message.contains("API 23–30") })
        #expect(report.findings.contains { $0.message.contains("BLUETOOTH_ADMIN is not declared, but startScan needs it") })
        // Connect only: BLUETOOTH_ADMIN is not needed.
        #expect(try L.android(body, uses: [.connect]).findings.map(\.message).filter { $0.contains("BLUETOOTH_ADMIN") }.isEmpty)
        // minSdk 31: the old model never applies.
        #expect(try L.android(body, sdk: (31, 34)).findings.isEmpty)
    }

    @Test func legacyPermissionsCappedAt30BreakAnAppTargeting30OnAndroid12() throws {
        let body = [L.permission("BLUETOOTH", "android:maxSdkVersion=\"30\""), L.permission("BLUETOOTH_ADMIN", "android:maxSdkVersion=\"30\""),
                    L.permission("ACCESS_FINE_LOCATION"), L.feature].joined(separator: "\n")
        let report = try L.android(body, sdk: (26, 30))
        #expect(report.ids == ["AND005", "AND005"])
        #expect(report.findings.first?.message.contains("capped at android:maxSdkVersion=\"30\"") == true)
        #expect(report.findings.first?.message.contains("API 26 and later") == true)
    }

    @Test func sdk23OnlyDeclarationsDoNotCoverEarlierLevels() throws {
        let body = L.modernBody.replacingOccurrences(of: "<uses-permission android:name=\"android.permission.BLUETOOTH\" ", with: "<uses-permission-sdk-23 android:name=\"android.permission.BLUETOOTH\" ")
        #expect(try L.android(body, sdk: (23, 34)).findings.isEmpty)
        let report = try L.android(body, sdk: (21, 34))
        #expect(report.ids == ["AND005"])
        #expect(report.findings.first?.message.contains("<uses-permission-sdk-23> only") == true)
    }

    // MARK: AND006

    @Test func scanningOnAndroid11NeedsLocation() throws {
        let body = L.modernBody.replacingOccurrences(of: L.permission("ACCESS_FINE_LOCATION", "android:maxSdkVersion=\"30\""), with: L.permission("ACCESS_COARSE_LOCATION", "android:maxSdkVersion=\"30\""))
        let report = try L.android(body)
        #expect(report.ids == ["AND006"])
        #expect(report.findings.first?.message.contains("ACCESS_COARSE_LOCATION suffices only when targeting API 28 or lower") == true)
        // Coarse suffices when targeting 28.
        let legacy = [L.permission("BLUETOOTH"), L.permission("BLUETOOTH_ADMIN"), L.permission("ACCESS_COARSE_LOCATION"), L.feature].joined(separator: "\n")
        #expect(try L.android(legacy, sdk: (21, 28)).findings.isEmpty)
        // Not scanning: no location needed.
        #expect(try L.android(body, uses: [.connect]).findings.isEmpty)
        // A location cap below 30 leaves Android 10 and 11 without it.
        let capped = L.modernBody.replacingOccurrences(of: L.permission("ACCESS_FINE_LOCATION", "android:maxSdkVersion=\"30\""), with: L.permission("ACCESS_FINE_LOCATION", "android:maxSdkVersion=\"28\""))
        #expect(try L.android(capped).ids == ["AND006"])
    }

    // MARK: AND007–AND010

    @Test func scanPermissionNeedsALocationStance() throws {
        let body = L.modernBody.replacingOccurrences(of: "android:usesPermissionFlags=\"neverForLocation\"", with: "")
        let report = try L.android(body)
        #expect(report.ids == ["AND007"])
        #expect(report.findings.first?.severity == .warning)
        #expect(report.findings.first?.location.line == 8)
        // Uncapped fine location also settles it.
        let withFine = body.replacingOccurrences(of: L.permission("ACCESS_FINE_LOCATION", "android:maxSdkVersion=\"30\""), with: L.permission("ACCESS_FINE_LOCATION"))
        #expect(try L.android(withFine, uses: [.scan, .connect, .location]).findings.isEmpty)
    }

    @Test func neverForLocationContradictsDerivingLocation() throws {
        let report = try L.android(L.modernBody, uses: [.scan, .connect, .location])
        #expect(report.ids == ["AND008"])
        #expect(report.findings.first?.severity == .error)
    }

    @Test func neverForLocationWithBeaconsWarns() throws {
        let report = try L.android(L.modernBody, uses: [.scan, .beacons])
        #expect(report.ids == ["AND009"])
        #expect(report.findings.first?.message.contains("some beacons are filtered") == true)
    }

    @Test func neverForLocationWithUncappedFineLocationWarns() throws {
        let body = L.modernBody.replacingOccurrences(of: L.permission("ACCESS_FINE_LOCATION", "android:maxSdkVersion=\"30\""), with: L.permission("ACCESS_FINE_LOCATION"))
        let report = try L.android(body)
        #expect(report.ids == ["AND010"])
        #expect(report.findings.first?.location.line == 7)
        #expect(report.findings.first?.message.contains("no android:maxSdkVersion") == true)
    }

    // MARK: AND011

    @Test func backgroundDiscoveryOnAndroid10And11NeedsBackgroundLocation() throws {
        let report = try L.android(L.modernBody, uses: [.scan, .background])
        #expect(report.ids == ["AND011"])
        #expect(report.findings.first?.message.contains("API 23") == false)
        #expect(report.findings.first?.message.contains("API 29–30") == true)
        let fixed = L.modernBody + "\n" + L.permission("ACCESS_BACKGROUND_LOCATION", "android:maxSdkVersion=\"30\"")
        #expect(try L.android(fixed, uses: [.scan, .background]).findings.isEmpty)
        // Targeting 28: background location is granted with foreground location.
        let legacy = [L.permission("BLUETOOTH"), L.permission("BLUETOOTH_ADMIN"), L.permission("ACCESS_FINE_LOCATION"), L.feature].joined(separator: "\n")
        #expect(try L.android(legacy, sdk: (23, 28), uses: [.scan, .background]).findings.isEmpty)
        // minSdk 31: never runs on 10 or 11.
        #expect(try L.android(L.modernBody, sdk: (31, 34), uses: [.scan, .background]).findings.isEmpty)
    }

    @Test func backgroundIsInferredFromAConnectedDeviceServiceAndPointsAtIt() throws {
        let xml = String(decoding: L.manifest(L.modernBody), as: UTF8.self).replacingOccurrences(
            of: "<application android:label=\"App\"/>",
            with: "<application android:label=\"App\">\n<service android:name=\".Recorder\" android:foregroundServiceType=\"location|connectedDevice\"/>\n</application>")
        let report = try Preflight.lintAndroid(data: Data(xml.utf8), name: "m.xml", options: AndroidOptions())
        #expect(report.ids == ["AND011"])
        #expect(report.findings.first?.message.contains("service .Recorder") == true)
        #expect(report.findings.first?.location.line == 12)
        #expect(report.notes.contains { $0.contains("background (from service .Recorder") })
    }

    // MARK: AND012–AND013

    @Test func bluetoothLEFeatureShouldBeDeclared() throws {
        let body = L.modernBody.replacingOccurrences(of: L.feature, with: "")
        let report = try L.android(body)
        #expect(report.ids == ["AND012"])
        #expect(report.findings.first?.severity == .warning)
        #expect(report.findings.first?.location.line == 2)
        // An app that does no Bluetooth is not asked for it.
        #expect(try L.android("", uses: []).findings.isEmpty)
    }

    @Test func requiredFeatureIsInfo() throws {
        for declaration in ["android:required=\"true\"", ""] {
            let body = L.modernBody.replacingOccurrences(of: "android:required=\"false\"", with: declaration)
            let report = try L.android(body)
            #expect(report.ids == ["AND013"])
            #expect(report.findings.first?.severity == .info)
        }
    }

    // MARK: AND014

    @Test func companionPairingWithLocationSuggestsCDM() throws {
        let body = L.modernBody + "\n" + L.permission("REQUEST_COMPANION_RUN_IN_BACKGROUND")
        let inferred = try L.android(body, uses: nil)
        #expect(inferred.ids == ["AND014"])
        #expect(inferred.findings.first?.message.contains("Companion Device Manager (API 26+)") == true)
        #expect(try L.android(L.modernBody, uses: [.scan, .connect, .companion]).ids == ["AND014"])
        // No location requested: nothing to suggest.
        let noLocation = L.modernBody.replacingOccurrences(of: L.permission("ACCESS_FINE_LOCATION", "android:maxSdkVersion=\"30\""), with: "")
        #expect(try L.android(noLocation, sdk: (31, 34), uses: [.connect, .companion]).findings.isEmpty)
    }

    // MARK: AND015–AND016

    @Test(arguments: [
        ("android.permission.BLUETOOTH_CONECT", "android.permission.BLUETOOTH_CONNECT"),
        ("android.permission.BLUETOOTH_SCANNING", "android.permission.BLUETOOTH_SCAN"),
        ("android.permission.bluetooth_scan", "android.permission.BLUETOOTH_SCAN"),
        ("android.permissions.BLUETOOTH_ADVERTISE", "android.permission.BLUETOOTH_ADVERTISE"),
    ])
    func unknownBluetoothPermissionNamesAreErrors(name: String, suggestion: String) throws {
        let report = try L.android(L.modernBody + "\n    <uses-permission android:name=\"\(name)\"/>", uses: [.scan, .connect])
        #expect(report.ids == ["AND015"])
        #expect(report.findings.first?.message.contains("did you mean \(suggestion)?") == true, "\(report.findings.first?.message ?? "")")
    }

    @Test func knownAndUnrelatedNamesAreNotFlagged() throws {
        let extra = ["BLUETOOTH_PRIVILEGED", "INTERNET", "NEARBY_WIFI_DEVICES"].map { L.permission($0) }.joined(separator: "\n")
            + "\n    <uses-permission android:name=\"com.example.permission.BLUETOOTH_GATEWAY\"/>"
        #expect(try L.android(L.modernBody + "\n" + extra).findings.isEmpty)
    }

    @Test func usesPermissionFlagsOnlyOnScanAndOnlyNeverForLocation() throws {
        let misplaced = L.modernBody.replacingOccurrences(of: L.permission("BLUETOOTH_CONNECT"), with: L.permission("BLUETOOTH_CONNECT", "android:usesPermissionFlags=\"neverForLocation\""))
        let report = try L.android(misplaced)
        #expect(report.ids == ["AND016"])
        #expect(report.findings.first?.message.contains("BLUETOOTH_CONNECT, which does not take it") == true)
        let unknownFlag = L.modernBody.replacingOccurrences(of: "neverForLocation\"", with: "neverForLocation|alwaysForLocation\"")
        let flagReport = try L.android(unknownFlag)
        #expect(flagReport.ids == ["AND016"])
        #expect(flagReport.findings.first?.message.contains("'alwaysForLocation'") == true)
        let wifi = L.modernBody + "\n" + L.permission("NEARBY_WIFI_DEVICES", "android:usesPermissionFlags=\"neverForLocation\"")
        #expect(try L.android(wifi).findings.isEmpty)
    }

    // MARK: AND017

    @Test func explainAddsTheNearbyDevicesNote() throws {
        let report = try L.android(L.modernBody, explain: true)
        #expect(report.ids == ["AND017"])
        let message = try #require(report.findings.first?.message)
        #expect(message.contains("one \"Nearby devices\" prompt"))
        #expect(message.contains("second denial"))
        #expect(message.contains("presses Connect"))
        #expect(!report.fails(strict: true))
    }

    // MARK: SDK levels and inference

    @Test func flagsOverrideUsesSdkAndUnknownLevelsAreAssumedAndSaid() throws {
        // The manifest says min 31, the flag says 23: the legacy rules apply.
        let body = L.modernBody.replacingOccurrences(of: L.permission("BLUETOOTH", "android:maxSdkVersion=\"30\""), with: "")
        #expect(try L.android(body, sdk: (31, 34)).findings.isEmpty)
        #expect(try L.android(body, sdk: (31, 34), minSdk: 23).ids == ["AND005"])
        let unknown = try L.android(L.modernBody, sdk: nil)
        #expect(unknown.findings.isEmpty)
        #expect(unknown.notes.contains { $0.contains("minSdk unknown") && $0.contains("assumed 21") })
        #expect(unknown.notes.contains { $0.contains("targetSdk unknown") && $0.contains("assumed 35") })
    }

    @Test func usesAreInferredFromDeclarationsAndSaidSo() throws {
        let report = try L.android(L.permission("BLUETOOTH") + "\n" + L.feature, uses: nil)
        // BLUETOOTH alone implies connecting, which on API 31+ needs BLUETOOTH_CONNECT.
        #expect(report.ids == ["AND002", "AND004"])
        #expect(report.notes.contains { $0.contains("inferred connect (from BLUETOOTH)") })
        let nothing = try L.android(L.permission("INTERNET"), uses: nil)
        #expect(nothing.findings.isEmpty)
        #expect(nothing.notes.contains { $0.contains("nothing inferred") })
    }

    @Test func elementsRemovedByToolsNodeDoNotCount() throws {
        let body = L.modernBody.replacingOccurrences(of: L.permission("BLUETOOTH_CONNECT"), with: L.permission("BLUETOOTH_CONNECT", "tools:node=\"remove\""))
        #expect(try L.android(body).ids == ["AND002"])
        let attribute = L.modernBody.replacingOccurrences(of: L.permission("BLUETOOTH", "android:maxSdkVersion=\"30\""),
                                                          with: L.permission("BLUETOOTH", "android:maxSdkVersion=\"30\" tools:remove=\"android:maxSdkVersion\""))
        #expect(try L.android(attribute).ids == ["AND004"])
    }

    // MARK: Realistic manifests

    @Test func mergedReleaseManifestWithManyPermissionsPasses() throws {
        let report = try Preflight.lintAndroid(path: try Fixture.path("android/merged-release.xml"), options: AndroidOptions())
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        #expect(report.notes.contains { $0.contains("scan (from BLUETOOTH_SCAN)") && $0.contains("background (from ACCESS_BACKGROUND_LOCATION)") })
        let beacons = try Preflight.lintAndroid(path: try Fixture.path("android/merged-release.xml"), options: AndroidOptions(uses: [.scan, .connect, .beacons]))
        #expect(beacons.ids == ["AND009"])
        #expect(beacons.findings.first?.location.line == 37)
    }

    @Test func sourceManifestHonoursToolsMarkers() throws {
        let report = try Preflight.lintAndroid(path: try Fixture.path("android/source-with-tools.xml"), options: AndroidOptions(minSdk: 26, targetSdk: 34))
        // BLUETOOTH_ADMIN's cap is removed by tools:remove (AND004); BLUETOOTH_ADVERTISE is removed by tools:node;
        // the uncapped ACCESS_FINE_LOCATION is removed, so AND010 does not fire; the feature is required (AND013).
        #expect(report.ids == ["AND004", "AND013"])
        #expect(report.findings("AND004").first?.location.line == 19)
        let advertising = try Preflight.lintAndroid(path: try Fixture.path("android/source-with-tools.xml"), options: AndroidOptions(minSdk: 26, targetSdk: 34, uses: [.scan, .connect, .advertise]))
        #expect(advertising.ids == ["AND003", "AND004", "AND013"])
    }

    @Test func legacyAppTargeting30WithCoarseLocation() throws {
        let report = try Preflight.lintAndroid(path: try Fixture.path("android/legacy-app.xml"), options: AndroidOptions())
        #expect(report.ids == ["AND006", "AND013"])
        #expect(report.findings("AND006").first?.message.contains("API 23 and later") == true)
    }

    @Test func malformedManifestIsAnErrorWithLineAndColumn() throws {
        let path = try Fixture.path("android/malformed.xml")
        #expect { try Preflight.lintAndroid(path: path) } throws: { error in
            guard case .xmlSyntax(let file, let line, let column, let message) = error as? PreflightError else { return false }
            return file == path && line == 6 && column == 5 && message.contains("</application> does not match <activity> opened at 5:9")
        }
    }

    @Test func aNonManifestRootIsRejected() {
        #expect { try Preflight.lintAndroid(data: Data("<resources/>".utf8), name: "strings.xml") } throws: { error in
            (error as? PreflightError)?.description == "strings.xml: the root element is <resources>, not <manifest>: not an AndroidManifest.xml"
        }
    }
}
