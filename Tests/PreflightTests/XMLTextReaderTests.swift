import Foundation
import Testing
@testable import Preflight

@Suite("Markup reader")
struct MarkupReaderTests {
    private func parse(_ text: String) throws(PreflightError) -> XMLTextElement {
        try XMLTextReader.parse(Data(text.utf8), file: "test.xml")
    }

    /// The line and column of the syntax error `text` raises, or nil if it parses.
    private func errorPosition(_ text: String) -> (line: Int, column: Int, message: String)? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            if case .xmlSyntax(_, let line, let column, let message) = error { return (line, column, message) }
            return (-1, -1, error.description)
        }
    }

    @Test func parsesElementsAttributesNamespacesAndPositions() throws {
        let root = try parse("""
        <?xml version="1.0" encoding="utf-8"?>
        <!-- a comment -->
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example">
          <uses-permission android:name="android.permission.BLUETOOTH_SCAN"
              android:usesPermissionFlags="neverForLocation"/>
          <application><![CDATA[raw <text>]]></application>
        </manifest>
        """)
        #expect(root.localName == "manifest")
        #expect(root.line == 3 && root.column == 1)
        #expect(root.attribute("package", namespace: nil) == "com.example")
        #expect(root.children.count == 2)
        let permission = root.children[0]
        #expect(permission.line == 4 && permission.column == 3)
        #expect(permission.attribute("name", namespace: AndroidManifest.androidNamespace) == "android.permission.BLUETOOTH_SCAN")
        #expect(permission.attribute("name", namespace: nil) == nil)
        #expect(root.children[1].text == "raw <text>")
    }

    @Test func decodesEntitiesAndCharacterReferences() throws {
        let root = try parse(#"<a v="x &amp; &lt;y&gt; &quot;q&quot; &apos;s&apos; &#65;&#x42;">caf&#233; &amp; b</a>"#)
        #expect(root.attribute("v", namespace: nil) == "x & <y> \"q\" 's' AB")
        #expect(root.text == "café & b")
    }

    @Test func countsColumnsInCharactersNotBytes() {
        // "é" is two bytes; the error column counts it once.
        let position = errorPosition("<a>é<b></a>")
        #expect(position?.line == 1)
        #expect(position?.column == 8)
    }

    @Test func skipsDoctypeWithInternalSubsetAndProcessingInstructions() throws {
        let root = try parse("<?xml version=\"1.0\"?>\n<!DOCTYPE plist [ <!ENTITY x \"y\"> ]>\n<?pi data?><plist/>")
        #expect(root.localName == "plist")
    }

    @Test func defaultNamespaceAppliesToElementsNotAttributes() throws {
        let root = try parse(#"<r xmlns="urn:x" a="1"><c/></r>"#)
        #expect(root.namespaceURI == "urn:x")
        #expect(root.children.first?.namespaceURI == "urn:x")
        #expect(root.attributes.first?.namespaceURI == nil)
    }

    @Test func acceptsUTF16WithByteOrderMark() throws {
        var data = Data([0xFF, 0xFE])
        for unit in "<a b=\"ü\"/>".utf16 { data.append(UInt8(unit & 0xFF)); data.append(UInt8(unit >> 8)) }
        let root = try XMLTextReader.parse(data, file: "utf16.xml")
        #expect(root.attribute("b", namespace: nil) == "ü")
    }

    @Test(arguments: [
        ("<a>\n  <b>\n</a>", 3, 1, "does not match"),
        ("<a>\n<b></b>", 2, 8, "<a> opened at 1:1 is not closed"),
        ("<a x=\"1\" x=\"2\"/>", 1, 10, "duplicate attribute"),
        ("<a p:x=\"1\"/>", 1, 4, "unbound namespace prefix 'p'"),
        ("<p:a/>", 1, 2, "unbound namespace prefix 'p'"),
        ("<a>&nbsp;</a>", 1, 4, "unknown entity"),
        ("<a>fish & chips</a>", 1, 9, "'&'"),
        ("<a/>\n<b/>", 2, 1, "content after the root"),
        ("<a/> trailing", 1, 6, "text after the root"),
        ("junk<a/>", 1, 1, "text before the root"),
        ("", 1, 1, "no root element"),
        ("<!-- never closed", 1, 18, "comment opened at 1:1"),
        ("<a x=1/>", 1, 6, "expected a quoted value"),
        ("<a x=\"<\"/>", 1, 7, "'<' is not allowed"),
        ("<a x=\"1\"y=\"2\"/>", 1, 9, "expected whitespace"),
        ("</a>", 1, 1, "without a start tag"),
        ("<a><![CDATA[open</a>", 1, 21, "CDATA section opened at 1:4"),
        ("<1a/>", 1, 2, "expected element name"),
        ("<a>&#0;</a>", 1, 4, "invalid character reference"),
    ])
    func rejectsMalformedXMLWithLineAndColumn(input: String, line: Int, column: Int, fragment: String) {
        let position = errorPosition(input)
        #expect(position != nil, "\(input) should be rejected")
        #expect(position?.line == line, "\(input): \(position?.message ?? "")")
        #expect(position?.column == column, "\(input): \(position?.message ?? "")")
        #expect(position?.message.contains(fragment) == true, "\(input): \(position?.message ?? "")")
    }

    @Test func rejectsInvalidUTF8AtItsPosition() {
        let data = Data("<a>\nok \u{0}".utf8.dropLast()) + Data([0xC3, 0x28]) + Data("</a>".utf8)
        do {
            _ = try XMLTextReader.parse(data, file: "bad.xml")
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            guard case .xmlSyntax(_, let line, let column, let message) = error else { Issue.record("\(error)"); return }
            #expect(line == 2 && column == 4)
            #expect(message.contains("invalid UTF-8"))
        }
    }

    @Test func everyTruncationOfAManifestIsATypedErrorNeverATrap() throws {
        let full = try Fixture.data("android/merged-release.xml")
        #expect(throws: Never.self) { try XMLTextReader.parse(full, file: "full.xml") }
        var failures = 0
        for length in stride(from: 0, to: full.count - 20, by: 7) {
            do {
                _ = try XMLTextReader.parse(full.prefix(length), file: "cut.xml")
            } catch {
                if case .xmlSyntax = error { failures += 1 }
            }
        }
        // Every prefix that stops before the closing </manifest> is malformed.
        #expect(failures == Array(stride(from: 0, to: full.count - 20, by: 7)).count)
    }

    @Test func garbageBytesAreTypedErrors() {
        var generator = SystemRandomNumberGenerator()
        var rejected = 0
        for _ in 0..<200 {
            let count = Int.random(in: 0..<64, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if Bool.random(using: &generator) { bytes.insert(0x3C, at: 0) }
            do {
                _ = try XMLTextReader.parse(Data(bytes), file: "garbage")
            } catch {
                rejected += 1
                #expect(error.description.hasPrefix("garbage:"))
            }
        }
        #expect(rejected > 190)
    }
}
