import Foundation
import Testing
@testable import Preflight

/// Inputs built to exhaust a reader: nesting far past the stack, attributes by the hundred thousand, zip
/// bombs. Each must be refused with `PreflightError.limitExceeded` naming the limit — never a crash.
@Suite("Hostile inputs")
struct HostileInputTests {
    static let manifestHead = #"<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example">"#

    /// The message of a refusal, or a recorded issue when `body` did not throw one.
    private func refusal(_ body: () throws -> Void) -> (location: String, message: String)? {
        do {
            try body()
            Issue.record("accepted")
        } catch {
            guard case .limitExceeded(_, let location, let message) = error as? PreflightError else {
                Issue.record("expected a limit refusal, got: \(error)")
                return nil
            }
            return (location, message)
        }
        return nil
    }

    @Test func xmlPlistNested5000DeepIsRefusedAtTheDepthLimit() {
        let text = "<plist>" + String(repeating: "<array>", count: 5_000) + String(repeating: "</array>", count: 5_000) + "</plist>"
        let refused = refusal { _ = try PropertyListReader.readDictionary(Data(text.utf8), file: "deep.plist") }
        #expect(refused?.message.contains("ReaderLimits.nestingDepth = 512") == true, "\(String(describing: refused))")
        // <plist> is depth 1, so the 512th <array> opens at depth 513: column 8 + 511 * 7 on line 1.
        #expect(refused?.location == "1:\(8 + 511 * 7)")
        #expect(refused?.message.contains("in /plist/array/array/array/…(") == true)
    }

    @Test func xmlPlistAtTheDepthLimitIsRead() throws {
        let depth = ReaderLimits.standard.nestingDepth - 2  // <plist>, then <dict> at depth 2
        let text = "<plist><dict><key>k</key>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</dict></plist>"
        let (root, _) = try PropertyListReader.readDictionary(Data(text.utf8), file: "p")
        var value = try #require(root.value.dictionary?["k"]?.value)
        var levels = 1
        while let inner = value.array?.first?.value { value = inner; levels += 1 }
        #expect(levels == depth)
    }

    @Test func manifestNested50000DeepIsRefused() {
        let text = Self.manifestHead + String(repeating: "<a>", count: 50_000) + String(repeating: "</a>", count: 50_000) + "</manifest>"
        let refused = refusal { _ = try Preflight.lintAndroid(data: Data(text.utf8), name: "AndroidManifest.xml") }
        #expect(refused?.message.contains("<a> nested 513 deep, more than ReaderLimits.nestingDepth = 512 in /manifest/a/a/a/…(") == true,
                "\(String(describing: refused))")
    }

    @Test func binaryManifestNested50000DeepIsRefused() {
        let data = TestAXMLWriter().encodeNested("manifest", depth: 50_000)
        #expect(AXMLReader.looksLikeBinaryXML(data))
        let refused = refusal { _ = try Preflight.lintAndroid(data: data, name: "AndroidManifest.xml") }
        #expect(refused?.message.contains("nested 513 deep, more than ReaderLimits.nestingDepth = 512") == true, "\(String(describing: refused))")
        // The 513th start-element chunk: after the 8-byte document header and the string pool.
        #expect(refused?.location.hasPrefix("byte ") == true)
    }

    @Test func deepManifestsInsideAnAPKAreRefused() {
        for manifest in [
            Data((Self.manifestHead + String(repeating: "<a>", count: 50_000) + String(repeating: "</a>", count: 50_000) + "</manifest>").utf8),
            TestAXMLWriter().encodeNested("manifest", depth: 50_000),
        ] {
            var zip = TestZipWriter()
            zip.add("AndroidManifest.xml", manifest)
            let apk = zip.build()
            let refused = refusal { _ = try Preflight.lintAndroid(data: apk, name: "deep.apk") }
            #expect(refused?.message.contains("ReaderLimits.nestingDepth = 512") == true)
        }
        var zip = TestZipWriter()
        zip.add("AndroidManifest.xml", Data(("<manifest>" + String(repeating: "<a>", count: 50_000)).utf8))
        do {
            _ = try Preflight.lintAndroid(data: zip.build(), name: "deep.apk")
        } catch {
            #expect(error.description.hasPrefix("deep.apk!/AndroidManifest.xml:1:"), "\(error)")
        }
    }

    /// `<manifest><application a0="0" a1="1" …/></manifest>`, optionally repeating the first name last.
    static func manyAttributes(_ count: Int, duplicateLast: Bool = false) -> Data {
        var text = Self.manifestHead + "<application"
        text.reserveCapacity(count * 16)
        for index in 0..<count { text += " a\(duplicateLast && index == count - 1 ? 0 : index)=\"\(index)\"" }
        return Data((text + "/></manifest>").utf8)
    }

    /// Refused at the limit, having done work linear in the attributes read up to it: a hashed set compares each
    /// new name with a few others, so the checks made fewer than `comparisonsPerName` comparisons per name. (The
    /// quadratic check compared each with every name before it: 2 billion comparisons at the limit.)
    @Test(arguments: [100_000, 200_000])
    func attributesPastTheLimitAreRefusedQuickly(count: Int) {
        let comparisons = NameComparisons()
        let refused = refusal { _ = try XMLTextReader.parse(Self.manyAttributes(count), file: "m.xml", counting: comparisons) }
        #expect(refused?.message.contains("attribute number 65536 on one element, more than ReaderLimits.attributesPerElement = 65535 in /manifest/application") == true,
                "\(String(describing: refused))")
        #expect(comparisons.count < Self.comparisonsPerName * 65_536, "\(comparisons.count) name comparisons for 65,536 names")
    }

    /// A hashed set's comparisons per name, on average, stay far below this (3.2 to 3.3 in Swift's sets, whatever
    /// the process's hash seed: 158,000 to 164,000 for 50,000 names over many runs); a scan of the names before
    /// it makes thousands.
    static let comparisonsPerName = 8

    /// Quadratic, 200,000 attributes took 160 s in a release build; linear, well under a second. Counted, not
    /// timed: four times the attributes make about four times the name comparisons, never 16.
    @Test func duplicateAttributeCheckIsLinear() throws {
        var limits = ReaderLimits()
        limits.attributesPerElement = 300_000
        var counts: [Int] = []
        for count in [50_000, 200_000] {
            let data = Self.manyAttributes(count, duplicateLast: true)
            let comparisons = NameComparisons()
            do {
                _ = try XMLTextReader.parse(data, file: "m.xml", limits: limits, counting: comparisons)
                Issue.record("duplicate accepted")
            } catch {
                #expect(error.description.contains("duplicate attribute a0 in <application>"), "\(error)")
            }
            counts.append(comparisons.count)
            #expect(comparisons.count < Self.comparisonsPerName * count, "\(comparisons.count) name comparisons for \(count) names")
            let element = try XMLTextReader.parse(Self.manyAttributes(count), file: "m.xml", limits: limits)
            #expect(element.children.first?.attributes.count == count)
        }
        // Four times the attributes: linear makes about 4 times the comparisons, quadratic 16 times.
        #expect(counts[1] < counts[0] * 8, "\(counts)")
    }

    @Test func attributesInTheWholeDocumentAreCounted() {
        var limits = ReaderLimits()
        limits.attributesPerDocument = 10
        let text = Self.manifestHead + String(repeating: #"<uses-permission android:name="x" android:maxSdkVersion="30"/>"#, count: 6) + "</manifest>"
        let refused = refusal { _ = try XMLTextReader.parse(Data(text.utf8), file: "m.xml", limits: limits) }
        #expect(refused?.message.contains("attribute number 11 in the document, more than ReaderLimits.attributesPerDocument = 10 in /manifest/uses-permission") == true,
                "\(String(describing: refused))")
    }

    @Test func longStringsAreRefused() {
        var limits = ReaderLimits()
        limits.stringBytes = 1_000
        let value = String(repeating: "x", count: 1_001)
        let attribute = refusal { _ = try XMLTextReader.parse(Data("<a b=\"\(value)\"/>".utf8), file: "m.xml", limits: limits) }
        #expect(attribute?.message.contains("a value of 1001 bytes for attribute b, more than ReaderLimits.stringBytes = 1000 in /a") == true)
        let text = refusal { _ = try XMLTextReader.parse(Data("<a>\(value)</a>".utf8), file: "m.xml", limits: limits) }
        #expect(text?.message.contains("text of 1001 bytes, more than ReaderLimits.stringBytes = 1000 in /a") == true)
    }

    @Test func aLongStringInABinaryManifestIsRefused() {
        var limits = ReaderLimits()
        limits.stringBytes = 100
        let data = TestAXMLWriter().encodeNested(String(repeating: "m", count: 101), depth: 1)
        let refused = refusal { _ = try AXMLReader.parse(data, file: "AndroidManifest.xml", limits: limits) }
        // The first string of the pool: 8-byte document header, 28-byte pool header, one 4-byte offset.
        #expect(refused?.location == "byte 40")
        #expect(refused?.message == "a string of 202 bytes, more than ReaderLimits.stringBytes = 100")
    }

    @Test func openStepPlistNestedDeepIsRefusedBeforeFoundationReadsIt() {
        let text = "{ a = " + String(repeating: "(", count: 5_000) + String(repeating: ")", count: 5_000) + "; }"
        let refused = refusal { _ = try PropertyListReader.readDictionary(Data(text.utf8), file: "deep.plist") }
        #expect(refused?.message.contains("containers nested 513 deep, more than ReaderLimits.nestingDepth = 512") == true)
        #expect(refused?.location == "byte 0x\(String(6 + 511, radix: 16))")
    }

    @Test func zipBombIsRefusedBeforeInflating() throws {
        // 4 KiB of zeros, deflated, whose central directory then claims 8 MiB: a ratio past 200 to 1, as a
        // bomb's would be (its declared size is what the inflater is held to).
        var zip = TestZipWriter()
        zip.add("AndroidManifest.xml", Data(count: 4096))
        var apk = zip.build()
        let directory = Int(apk[apk.count - 6]) | Int(apk[apk.count - 5]) << 8 | Int(apk[apk.count - 4]) << 16
        #expect(apk[directory..<(directory + 4)].elementsEqual([0x50, 0x4B, 0x01, 0x02]))
        apk.replaceSubrange((directory + 24)..<(directory + 28), with: [0, 0, 0x80, 0])  // 8 MiB, little-endian
        let refused = refusal { _ = try Preflight.lintAndroid(data: apk, name: "bomb.apk") }
        #expect(refused?.message.contains("inflate to 8388608 (a zip bomb?), more than ReaderLimits.compressionRatio = 200 in /AndroidManifest.xml") == true,
                "\(String(describing: refused))")
    }

    @Test func zipEntriesPastTheLimitAreRefused() {
        var limits = ReaderLimits()
        limits.zipEntries = 2
        var zip = TestZipWriter()
        for index in 0..<3 { zip.add("f\(index)", Data("x".utf8), method: .stored) }
        let refused = refusal { _ = try ZipArchive(zip.build(), file: "many.zip", limits: limits) }
        #expect(refused?.message == "3 entries, more than ReaderLimits.zipEntries = 2 in /central directory")
    }
}
