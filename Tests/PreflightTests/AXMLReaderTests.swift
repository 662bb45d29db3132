import Foundation
import Testing
@testable import Preflight

@Suite("Binary XML (AXML) reader")
struct AXMLReaderTests {
    typealias W = TestAXMLWriter

    static func sampleManifest() -> W.Element {
        W.Element(namespace: nil, name: "manifest", attributes: [
            W.Attribute(namespace: nil, name: "package", value: .string("com.example.strap")),
            W.androidAttribute("versionCode", .intDec(87)),
        ], children: [
            W.Element(name: "uses-sdk", attributes: [
                W.androidAttribute("minSdkVersion", .intDec(26)), W.androidAttribute("targetSdkVersion", .intDec(34)),
            ], line: 4),
            W.Element(name: "uses-permission", attributes: [
                W.androidAttribute("name", .string("android.permission.BLUETOOTH")), W.androidAttribute("maxSdkVersion", .intDec(30)),
            ], line: 6),
            W.Element(name: "uses-permission", attributes: [
                W.androidAttribute("name", .string("android.permission.BLUETOOTH_SCAN")),
                W.androidAttribute("usesPermissionFlags", .intHex(0x10000)),
            ], line: 8),
            W.Element(name: "uses-feature", attributes: [
                W.androidAttribute("name", .string("android.hardware.bluetooth_le")), W.androidAttribute("required", .bool(false)),
            ], line: 10),
            W.Element(name: "application", attributes: [W.androidAttribute("icon", .reference(0x7F08_0001))], children: [
                W.Element(name: "service", attributes: [
                    W.androidAttribute("name", .string(".RecordingService")),
                    W.androidAttribute("foregroundServiceType", .intHex(0x10)),
                ], line: 14),
            ], line: 12, text: "café ✓"),
        ], line: 2)
    }

    @Test(arguments: [false, true])
    func decodesElementsTypedValuesAndLines(utf8: Bool) throws {
        var writer = W()
        writer.utf8 = utf8
        let root = try AXMLReader.parse(writer.encode(Self.sampleManifest()), file: "AndroidManifest.xml")
        #expect(root.localName == "manifest")
        #expect(root.line == 2)
        #expect(root.attribute("package", namespace: nil) == "com.example.strap")
        #expect(root.attribute("versionCode", namespace: W.android) == "87")
        let sdk = try #require(root.children.first)
        #expect(sdk.attribute("minSdkVersion", namespace: W.android) == "26")
        #expect(root.children[2].attribute("usesPermissionFlags", namespace: W.android) == "0x10000")
        #expect(root.children[3].attribute("required", namespace: W.android) == "false")
        #expect(root.children[3].line == 10)
        let application = root.children[4]
        #expect(application.attribute("icon", namespace: W.android) == "@0x7f080001")
        #expect(application.text == "café ✓")
        #expect(application.children.first?.attribute("foregroundServiceType", namespace: W.android) == "0x10")

        let manifest = try AndroidManifest(root, file: "AndroidManifest.xml")
        #expect(manifest.minSdkVersion == 26 && manifest.targetSdkVersion == 34)
        #expect(manifest.permissions.map(\.shortName) == ["BLUETOOTH", "BLUETOOTH_SCAN"])
        #expect(manifest.permissions[0].maxSdkVersion == 30)
        #expect(manifest.permissions[1].usesPermissionFlags == ["neverForLocation"])
        #expect(manifest.features.first?.required == false)
        #expect(manifest.services.first?.foregroundServiceTypes == ["connectedDevice"])
    }

    @Test func namesAttributesFromTheResourceMapWhenTheirStringsAreBlank() throws {
        var writer = W()
        writer.blankAttributeNames = true
        let root = try AXMLReader.parse(writer.encode(Self.sampleManifest()), file: "shrunk.xml")
        #expect(root.children[1].attribute("name", namespace: W.android) == "android.permission.BLUETOOTH")
        #expect(root.children[1].attribute("maxSdkVersion", namespace: W.android) == "30")
        #expect(root.children[0].attribute("targetSdkVersion", namespace: W.android) == "34")
    }

    @Test func decodesLongUTF16AndUTF8Strings() throws {
        let long = String(repeating: "ß", count: 40000)
        for utf8 in [false, true] {
            var writer = W()
            writer.utf8 = utf8
            let element = W.Element(name: "manifest", attributes: [W.Attribute(namespace: nil, name: "x", value: .string(utf8 ? String(long.prefix(200)) : long))])
            let root = try AXMLReader.parse(writer.encode(element), file: "long.xml")
            #expect(root.attribute("x", namespace: nil) == (utf8 ? String(long.prefix(200)) : long))
        }
    }

    @Test func everyTruncationIsATypedErrorNeverATrap() throws {
        let data = W().encode(Self.sampleManifest())
        for length in 0..<data.count {
            do {
                _ = try AXMLReader.parse(data.prefix(length), file: "cut.xml")
                Issue.record("a \(length)-byte prefix of \(data.count) was accepted")
            } catch {
                guard case .binaryXML(let file, let offset, _) = error else { Issue.record("\(error)"); continue }
                #expect(file == "cut.xml")
                #expect(offset >= 0 && offset <= data.count)
            }
        }
    }

    /// Corrupts one byte at a time through the whole document: each must decode or fail with a typed error.
    @Test func everySingleByteCorruptionIsHandled() throws {
        let data = W().encode(Self.sampleManifest())
        var rejected = 0
        for offset in 0..<data.count {
            for value: UInt8 in [0x00, 0xFF, 0x7F] {
                var corrupted = data
                corrupted[offset] = value
                do {
                    _ = try AXMLReader.parse(corrupted, file: "c.xml")
                } catch {
                    rejected += 1
                }
            }
        }
        #expect(rejected > data.count / 4)
    }

    private func message(_ data: Data) -> String {
        do {
            _ = try AXMLReader.parse(data, file: "m.xml")
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test func reportsBadChunkSizesAndIndices() throws {
        let good = W().encode(Self.sampleManifest())
        var docSize = good
        docSize[4] = 0xFF; docSize[5] = 0xFF; docSize[6] = 0xFF
        #expect(message(docSize).contains("document chunk claims"))

        var poolSize = good
        poolSize[8 + 4] = 0xFF; poolSize[8 + 5] = 0xFF; poolSize[8 + 6] = 0xFF  // string pool chunk size
        #expect(message(poolSize).contains("claims"))

        var poolHeader = good
        poolHeader[8 + 2] = 4  // header size below 8
        #expect(message(poolHeader).contains("header size 4"))

        var stringCount = good
        stringCount[8 + 8] = 0xFF; stringCount[8 + 9] = 0xFF  // string count
        #expect(message(stringCount).contains("strings, more than"))

        var wrongType = good
        wrongType[0] = 0x02
        #expect(message(wrongType).contains("expected 0x0003"))

        #expect(message(Data([0x03, 0x00])).contains("too short"))
        #expect(message(Data([0x03, 0x00, 0x08, 0x00, 0x08, 0x00, 0x00, 0x00])).contains("no root element"))
    }

    @Test func reportsOutOfRangeStringIndexAndMismatchedEnd() throws {
        // Build a document by hand: empty pool, then a start element naming string 5.
        var body = Data()
        body.le16(0x0001); body.le16(28); body.le32(28); body.le32(0); body.le32(0); body.le32(0); body.le32(28); body.le32(0)
        var element = Data()
        element.le16(0x0102); element.le16(16); element.le32(36); element.le32(1); element.le32(0xFFFF_FFFF)
        element.le32(0xFFFF_FFFF); element.le32(5); element.le16(20); element.le16(20); element.le16(0); element.le16(0); element.le16(0); element.le16(0)
        var document = Data()
        document.le16(3); document.le16(8); document.le32(UInt32(8 + body.count + element.count))
        #expect(message(document + body + element).contains("string index 5 is past"))

        // A valid pool with "a" and "b"; <a> closed by </b>.
        var writer = W()
        writer.namespaces = []
        let valid = writer.encode(W.Element(name: "a", children: [W.Element(name: "b")]))
        // Swap the final end-element's name index to point at "b" (index 1) instead of "a".
        var swapped = valid
        let nameOffset = valid.count - 4
        let current = ByteReader(valid).u32(nameOffset) ?? 0
        swapped[nameOffset] = UInt8(current == 0 ? 1 : 0)
        #expect(message(swapped).contains("does not match"))
    }

    @Test func attributeCountOverflowIsReported() throws {
        var writer = W()
        writer.namespaces = []
        var data = writer.encode(W.Element(name: "m", attributes: [W.Attribute(namespace: nil, name: "k", value: .string("v"))]))
        // Find the start element chunk (type 0x0102) and raise its attribute count.
        let reader = ByteReader(data)
        var offset = 8
        while let type = reader.u16(offset), type != 0x0102, let size = reader.u32(offset + 4) { offset += Int(size) }
        data[offset + 16 + 12] = 0xF0
        #expect(message(data).contains("run past"))
    }

    @Test func randomGarbageAfterAValidHeaderIsATypedError() {
        var generator = SystemRandomNumberGenerator()
        var rejected = 0
        for _ in 0..<300 {
            var data = Data([0x03, 0x00, 0x08, 0x00])
            let count = Int.random(in: 4..<120, using: &generator)
            data.le32(UInt32(count + 8))
            data += Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            do {
                _ = try AXMLReader.parse(data, file: "r")
            } catch {
                rejected += 1
                #expect(error.description.hasPrefix("r: malformed binary XML"))
            }
        }
        #expect(rejected > 250)
    }
}
