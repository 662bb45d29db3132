import Foundation
import Testing
@testable import Preflight

@Suite("Property list reader")
struct PropertyListReaderTests {
    @Test func readsEveryXMLTypeWithKeyLines() throws {
        let (root, format) = try PropertyListReader.readDictionary(try Fixture.data("ios/Info-source.plist"), file: "Info.plist")
        #expect(format == .xml)
        let plist = try #require(root.value.dictionary)
        #expect(plist["NSBluetoothAlwaysUsageDescription"]?.value.string == "$(PRODUCT_NAME) connects to your heart-rate strap to record workouts & sync them.")
        #expect(plist["NSBluetoothAlwaysUsageDescription"]?.line == 25)
        #expect(plist["ITSAppUsesNonExemptEncryption"]?.value == .bool(false))
        #expect(plist["BuildNumberOffset"]?.value == .integer(-12))
        #expect(plist["AnimationScale"]?.value == .real(1.5))
        #expect(plist["Salt"]?.value == .data(Data([0, 1, 2])))
        #expect(plist["FirstRelease"]?.value == .date(Date(timeIntervalSince1970: 1_623_067_200)))
        #expect(plist["UIBackgroundModes"]?.value.array?.compactMap(\.value.string) == ["bluetooth-central", "remote-notification"])
        let scenes = plist["UIApplicationSceneManifest"]?.value.dictionary?["UISceneConfigurations"]?.value.dictionary
        #expect(scenes?["UIWindowSceneSessionRoleApplication"]?.value.array?.count == 1)
    }

    @Test func readsABinaryPlistWrittenByPython() throws {
        let (root, format) = try PropertyListReader.readDictionary(try Fixture.data("ios/Info-binary.plist"), file: "Info.plist")
        #expect(format == .binary)
        let plist = try #require(root.value.dictionary)
        #expect(plist["CFBundleIdentifier"]?.value.string == "com.example.sample")
        #expect(plist["MinimumOSVersion"]?.value.string == "12.0")
        #expect(plist["LSRequiresIPhoneOS"]?.value == .bool(true))
        #expect(plist["SampleInteger"]?.value == .integer(1))
        #expect(plist["SampleReal"]?.value == .real(2.5))
        #expect(plist["SampleData"]?.value == .data(Data([0, 1, 2])))
        #expect(plist["UIDeviceFamily"]?.value.array?.map(\.value) == [.integer(1), .integer(2)])
        #expect(plist["CFBundleIdentifier"]?.line == nil)
    }

    @Test func readsABinaryPlistWrittenByFoundation() throws {
        let object: [String: Any] = ["NSBluetoothAlwaysUsageDescription": "Finds your bike lock nearby.", "UIBackgroundModes": ["bluetooth-peripheral"], "Flag": true, "Count": 0]
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        #expect(data.starts(with: Array("bplist00".utf8)))
        let (root, _) = try PropertyListReader.readDictionary(data, file: "Info.plist")
        let plist = try #require(root.value.dictionary)
        #expect(plist["UIBackgroundModes"]?.value.array?.first?.value.string == "bluetooth-peripheral")
        #expect(plist["Flag"]?.value == .bool(true))
        #expect(plist["Count"]?.value == .integer(0))
    }

    @Test func reportsMalformedXMLPlistWithLineAndColumn() throws {
        let data = try Fixture.data("ios/Info-malformed.plist")
        do {
            _ = try PropertyListReader.readDictionary(data, file: "Info.plist")
            Issue.record("malformed plist accepted")
        } catch {
            #expect(error == .xmlSyntax(file: "Info.plist", line: 5, column: 32, message: "end tag </strng> does not match <string> opened at 5:2"))
        }
    }

    @Test(arguments: [
        ("<plist><array/></plist>", "top level is a array"),
        ("<plist><dict><key>a</key></dict></plist>", "has no value"),
        ("<plist><dict><string>x</string></dict></plist>", "expected <key>"),
        ("<plist><dict><key>a</key><key>b</key></dict></plist>", "followed by another <key>"),
        ("<plist><dict><key>a</key><integer>1.5</integer></dict></plist>", "not an integer"),
        ("<plist><dict><key>a</key><real>x</real></dict></plist>", "not a number"),
        ("<plist><dict><key>a</key><date>yesterday</date></dict></plist>", "not an ISO 8601 date"),
        ("<plist><dict><key>a</key><data>!!!</data></dict></plist>", "not valid base64"),
        ("<plist><dict><key>a</key><true>x</true></dict></plist>", "must be empty"),
        ("<plist><dict><key>a</key><widget/></dict></plist>", "not a property list element"),
        ("<plist><dict/><dict/></plist>", "exactly one value"),
        ("<html/>", "not <plist>"),
    ])
    func rejectsStructurallyBadXMLPlists(text: String, fragment: String) {
        do {
            _ = try PropertyListReader.readDictionary(Data(text.utf8), file: "p.plist")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.contains(fragment), "\(error.description)")
        }
    }

    @Test func truncatedBinaryPlistsAreTypedErrors() throws {
        let data = try Fixture.data("ios/Info-binary.plist")
        for length in [6, 8, 9, 16, 40, data.count / 2, data.count - 33, data.count - 1] {
            #expect(throws: PreflightError.self, "length \(length)") {
                _ = try PropertyListReader.readDictionary(data.prefix(length), file: "cut.plist")
            }
        }
    }

    @Test func corruptedBinaryPlistTrailerIsATypedError() throws {
        var data = try Fixture.data("ios/Info-binary.plist")
        // The trailer's last 8 bytes are the offset-table offset: point it past the end.
        for index in (data.count - 8)..<data.count { data[index] = 0xFF }
        do {
            _ = try PropertyListReader.readDictionary(data, file: "bad.plist")
            Issue.record("corrupt trailer accepted")
        } catch {
            guard case .propertyList(let file, let message) = error else { Issue.record("\(error)"); return }
            #expect(file == "bad.plist")
            #expect(message.hasPrefix("binary property list"))
        }
    }

    @Test func garbageIsNotAPropertyList() {
        #expect(throws: PreflightError.self) { try PropertyListReader.readDictionary(Data([0x00, 0x01, 0xFE, 0x42]), file: "g") }
        #expect(throws: PreflightError.self) { try PropertyListReader.readDictionary(Data("bplist00garbage".utf8), file: "g") }
        #expect(throws: PreflightError.self) { try PropertyListReader.readDictionary(Data(), file: "g") }
    }
}
