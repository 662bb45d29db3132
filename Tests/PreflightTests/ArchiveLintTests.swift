import Foundation
import Testing
@testable import Preflight

@Suite("Archives: IPA and APK")
struct ArchiveLintTests {
    typealias W = TestAXMLWriter

    // MARK: IPA

    @Test func lintsTheBinaryInfoPlistInsideAPythonBuiltIPA() throws {
        let path = try Fixture.path("ios/Sample.ipa")
        let report = try Preflight.lintIOS(path: path, options: IOSOptions(uses: [.central, .backgroundCentral]))
        #expect(report.location.entry == "Payload/Sample.app/Info.plist")
        // MinimumOSVersion 12.0 and no Peripheral key; bluetooth-le listed as a required capability.
        #expect(report.ids == ["IOS002", "IOS007"])
        #expect(report.findings.allSatisfy { $0.location.entry == "Payload/Sample.app/Info.plist" && $0.location.line == nil })
        #expect(report.findings.first?.location.description == "\(path)!/Payload/Sample.app/Info.plist")
    }

    @Test func lintsAnXMLInfoPlistInAnIPAWrittenByTheTest() throws {
        var writer = TestZipWriter()
        writer.add("Payload/", Data(), method: .stored)
        writer.add("Payload/Strap.app/Strap", CorpusRecipe.randomBytes(5000, seed: 1), method: .stored)
        writer.add("Payload/Strap.app/PlugIns/W.appex/Info.plist", Lint.plist(""))  // nested: not the app's plist
        writer.add("Payload/Strap.app/Info.plist", Lint.plist("<key>MinimumOSVersion</key><string>14.0</string><key>NSBluetoothAlwaysUsageDescription</key><string>Bluetooth</string>"))
        let report = try Preflight.lintIOS(data: writer.build(), name: "Strap.ipa", options: IOSOptions(uses: [.central]))
        #expect(report.ids == ["IOS004"])
        #expect(report.findings.first?.location.description == "Strap.ipa!/Payload/Strap.app/Info.plist:5:49")
    }

    @Test func anIPAWithoutAnAppIsRejected() throws {
        let data = try Fixture.data("ios/NoApp.ipa")
        #expect { try Preflight.lintIOS(data: data, name: "NoApp.ipa") } throws: { error in
            (error as? PreflightError)?.description == "NoApp.ipa: no Payload/*.app/Info.plist in this archive: not an iOS app (.ipa)"
        }
    }

    @Test func aTruncatedIPAIsAZipError() throws {
        let data = try Fixture.data("ios/Sample.ipa")
        #expect { try Preflight.lintIOS(data: data.prefix(data.count - 30), name: "cut.ipa") } throws: { error in
            guard case .zip = error as? PreflightError else { return false }
            return true
        }
    }

    @Test func aCorruptPlistInsideAnIPANamesTheEntry() throws {
        var writer = TestZipWriter()
        writer.add("Payload/X.app/Info.plist", Data("<plist><dict><key>a</key></dict>".utf8))
        #expect { try Preflight.lintIOS(data: writer.build(), name: "X.ipa") } throws: { error in
            (error as? PreflightError)?.description.hasPrefix("X.ipa!/Payload/X.app/Info.plist:1:33: malformed XML") == true
        }
    }

    // MARK: APK

    static func apk(_ manifest: W.Element, utf8: Bool = false) -> Data {
        var axml = W()
        axml.utf8 = utf8
        var writer = TestZipWriter()
        writer.add("AndroidManifest.xml", axml.encode(manifest))
        writer.add("classes.dex", CorpusRecipe.randomBytes(3000, seed: 5), method: .stored)
        writer.add("res/layout/main.xml", Data([0x03, 0x00, 0x08, 0x00, 0x08, 0x00, 0x00, 0x00]))
        writer.add("META-INF/MANIFEST.MF", Data("Manifest-Version: 1.0\n".utf8))
        return writer.build()
    }

    static func permission(_ short: String, max: Int32? = nil, flags: UInt32? = nil, line: UInt32) -> W.Element {
        var attributes = [W.androidAttribute("name", .string("android.permission.\(short)"))]
        if let max { attributes.append(W.androidAttribute("maxSdkVersion", .intDec(max))) }
        if let flags { attributes.append(W.androidAttribute("usesPermissionFlags", .intHex(flags))) }
        return W.Element(name: "uses-permission", attributes: attributes, line: line)
    }

    static func modernManifest(min: Int32 = 23, target: Int32 = 34) -> W.Element {
        W.Element(name: "manifest", attributes: [W.Attribute(namespace: nil, name: "package", value: .string("com.example.strap"))], children: [
            W.Element(name: "uses-sdk", attributes: [W.androidAttribute("minSdkVersion", .intDec(min)), W.androidAttribute("targetSdkVersion", .intDec(target))], line: 3),
            permission("INTERNET", line: 5),
            permission("BLUETOOTH", max: 30, line: 6),
            permission("BLUETOOTH_ADMIN", max: 30, line: 7),
            permission("ACCESS_FINE_LOCATION", max: 30, line: 8),
            permission("BLUETOOTH_SCAN", flags: 0x10000, line: 9),
            permission("BLUETOOTH_CONNECT", line: 10),
            W.Element(name: "uses-feature", attributes: [W.androidAttribute("name", .string("android.hardware.bluetooth_le")), W.androidAttribute("required", .bool(false))], line: 11),
            W.Element(name: "application", attributes: [W.androidAttribute("label", .reference(0x7F0F_0001))], children: [
                W.Element(name: "activity", attributes: [W.androidAttribute("name", .string(".MainActivity"))], line: 13),
            ], line: 12),
        ], line: 2)
    }

    @Test(arguments: [false, true])
    func lintsTheBinaryManifestOfAnAPKWrittenByTheTest(utf8: Bool) throws {
        let good = try Preflight.lintAndroid(data: Self.apk(Self.modernManifest(), utf8: utf8), name: "app-release.apk", options: AndroidOptions())
        #expect(good.findings.isEmpty, "\(good.findings.map(\.message))")
        #expect(good.location.entry == "AndroidManifest.xml")
        #expect(good.notes.contains { $0.contains("inferred scan (from BLUETOOTH_SCAN), connect (from BLUETOOTH_CONNECT)") })

        var broken = Self.modernManifest()
        broken.children.remove(at: 6)  // BLUETOOTH_CONNECT
        broken.children[3] = Self.permission("BLUETOOTH_ADMIN", line: 7)  // uncapped
        broken.children.append(Self.permission("BLUETOOTH_CONECT", line: 14))
        let report = try Preflight.lintAndroid(data: Self.apk(broken, utf8: utf8), name: "app-release.apk", options: AndroidOptions(uses: [.scan, .connect]))
        #expect(report.ids == ["AND002", "AND004", "AND015"])
        #expect(report.findings("AND015").first?.location.description == "app-release.apk!/AndroidManifest.xml:14")
        #expect(report.findings("AND004").first?.location.line == 7)
    }

    @Test func binaryManifestOutsideAnAPKIsReadToo() throws {
        let axml = W().encode(Self.modernManifest(min: 21, target: 30))
        let report = try Preflight.lintAndroid(data: axml, name: "AndroidManifest.xml", options: AndroidOptions(uses: [.scan]))
        // Targeting 30 with the old permissions capped at 30: broken on Android 12.
        #expect(report.ids == ["AND005", "AND005", "AND006"])
    }

    @Test func anAppBundleIsExplained() {
        var writer = TestZipWriter()
        writer.add("base/manifest/AndroidManifest.xml", Data([0x0A, 0x01]))
        #expect { try Preflight.lintAndroid(data: writer.build(), name: "app.aab") } throws: { error in
            (error as? PreflightError)?.description.contains("Android App Bundle (.aab)") == true
        }
        var other = TestZipWriter()
        other.add("readme.txt", Data("hi".utf8))
        #expect { try Preflight.lintAndroid(data: other.build(), name: "x.zip") } throws: { error in
            (error as? PreflightError)?.description == "x.zip: no AndroidManifest.xml at the top of this archive: not an Android app (.apk)"
        }
    }

    @Test func aCorruptBinaryManifestInsideAnAPKNamesTheEntryAndOffset() throws {
        var axml = W().encode(Self.modernManifest())
        axml[8 + 8] = 0xFF; axml[8 + 9] = 0xFF  // the string pool's string count
        var writer = TestZipWriter()
        writer.add("AndroidManifest.xml", axml)
        #expect { try Preflight.lintAndroid(data: writer.build(), name: "bad.apk") } throws: { error in
            (error as? PreflightError)?.description.hasPrefix("bad.apk!/AndroidManifest.xml: malformed binary XML at byte 16:") == true
        }
    }

    @Test func everyTruncationOfAnAPKIsATypedError() async throws {
        let data = Self.apk(Self.modernManifest())
        for length in stride(from: 0, to: data.count, by: 97) {
            await Task.yield() // a long synchronous loop would stall other tests' timers on a 2-core machine
            #expect(throws: PreflightError.self) { try Preflight.lintAndroid(data: data.prefix(length), name: "cut.apk") }
        }
    }

    @Test func unreadablePathsAreClearErrors() throws {
        #expect { try Preflight.lintAndroid(path: "/nonexistent/AndroidManifest.xml") } throws: { error in
            (error as? PreflightError)?.description == "cannot read /nonexistent/AndroidManifest.xml: no such file"
        }
        let directory = try Fixture.path("android")
        #expect { try Preflight.lintIOS(path: directory) } throws: { error in
            (error as? PreflightError)?.description.contains("it is a directory") == true
        }
    }
}
