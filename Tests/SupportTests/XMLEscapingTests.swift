import Foundation
import FoundationXML
import Support
import Testing

/// What `XMLEscaping` writes reads back through libxml2 (Foundation's `XMLDocument`), a reader we did not
/// write: the same string in an attribute and in character data, every character XML 1.0 allows kept (a tab,
/// line breaks, markup, quotes, a non-ASCII name), each it forbids or discourages shown as U+FFFD.
@Suite struct XMLEscapingTests {
    static let hostile = "<script>a & b</script> \"q\" 'a'\tcol\nline\r\nCRLF\rCR café 🦷\u{1}\u{8}\u{1B}\u{7F}\u{85}\u{FFFE}\u{FFFF}]]>"
    /// What a reader must see: the same, the forbidden and discouraged characters replaced.
    static let readBack = "<script>a & b</script> \"q\" 'a'\tcol\nline\r\nCRLF\rCR café 🦷\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}]]>"

    @Test func anAttributeAndCharacterDataReadBackAsWritten() throws {
        let xml = "<r a=\"\(XMLEscaping.attribute(Self.hostile))\" b='\(XMLEscaping.attribute(Self.hostile))'>\(XMLEscaping.text(Self.hostile))</r>"
        let root = try #require(try XMLDocument(xmlString: xml, options: []).rootElement())
        #expect(root.attribute(forName: "a")?.stringValue == Self.readBack)
        #expect(root.attribute(forName: "b")?.stringValue == Self.readBack)
        #expect(root.stringValue == Self.readBack)
    }

    /// The check can fail: unescaped, libxml2's parser refuses the text (and `XMLDocument`, which recovers,
    /// reads it back changed); a line break and a tab written literally in an attribute read back as spaces, and
    /// a carriage return in character data as a line feed.
    @Test func withoutEscapingTheReaderRefusesOrChangesTheText() throws {
        let unescaped = "<r>\(Self.hostile)</r>"
        #expect(XMLParser(data: Data(unescaped.utf8)).parse() == false)
        #expect(XMLParser(data: Data("<r>\(XMLEscaping.text(Self.hostile))</r>".utf8)).parse() == true)
        #expect(try XMLDocument(xmlString: unescaped, options: []).rootElement()?.stringValue != Self.readBack)
        let literal = try #require(try XMLDocument(xmlString: "<r a=\"x\ty\nz\">a\rb</r>", options: []).rootElement())
        #expect(literal.attribute(forName: "a")?.stringValue == "x y z")
        #expect(literal.stringValue == "a\nb")
    }
}
