#if canImport(FoundationXML)
import FoundationXML
#endif
import Foundation
@testable import HILResults
import Testing
import TestSupport

/// history.html, read by libxml2's `xmllint` (a child process): `xmllint --html` finds nothing wrong but the
/// HTML5 and SVG element names its HTML 4 parser does not know, and `xmllint` (XML) finds it well-formed.
@Suite(.tags(.process)) struct HistoryHTMLXMLLintTests {
    /// Element names of HTML5 and SVG, which libxml2's HTML parser reports as "Tag … invalid" and still parses.
    static let html5AndSVG: Set<String> = ["header", "section", "figure", "figcaption", "footer", "svg", "line", "text", "polyline", "circle", "title", "wbr"]

    /// `xmllint --html --noout` and `xmllint --noout` on `html`: the error lines of each.
    static func xmllint(_ html: String) async throws -> (html: [String], xml: [String], xmlStatus: Int32) {
        let tool = try JUnitSchemaTests.xmllint()
        let directory = try TemporaryDirectory.make("hil-history-xmllint")
        defer { TemporaryDirectory.remove(directory) }
        let file = directory.appendingPathComponent("history.html")
        try html.write(to: file, atomically: true, encoding: .utf8)
        let asHTML = await runProgramCapturing(tool, ["--html", "--noout", file.path])
        let asXML = await runProgramCapturing(tool, ["--noout", file.path])
        let errors = asHTML.stderr.split(separator: "\n").map(String.init).filter { $0.contains("parser error") }
        return (errors, asXML.stderr.split(separator: "\n").map(String.init), asXML.termination?.exitStatus ?? 127)
    }

    /// The errors that are not an HTML5 or SVG element name libxml2's HTML 4 parser does not know.
    static func realErrors(_ lines: [String]) -> [String] {
        lines.filter { line in
            guard let range = line.range(of: "HTML parser error : Tag "), line.hasSuffix(" invalid") else { return true }
            let name = line[range.upperBound...].dropLast(" invalid".count)
            return !html5AndSVG.contains(String(name))
        }
    }

    @Test func xmllintFindsItWellFormed() async throws {
        let (html, scratch) = try HistoryHTMLTests.history()
        defer { TemporaryDirectory.remove(scratch) }
        let result = try await Self.xmllint(html)
        #expect(Self.realErrors(result.html).isEmpty, "\(result.html)")
        #expect(result.xmlStatus == 0 && result.xml.isEmpty, "\(result.xml)")
    }

    /// The check can fail: a tag left open, an unescaped `&` are reported.
    @Test(arguments: ["<p>a <b>x</p>", "<p>a & b</p>"])
    func xmllintRejectsBrokenMarkup(fragment: String) async throws {
        let page = "<!DOCTYPE html>\n<html><head><title>t</title></head><body><section>\(fragment)</section></body></html>\n"
        let result = try await Self.xmllint(page)
        #expect(!Self.realErrors(result.html).isEmpty, "\(result.html)")
    }

    /// The page of `HistoryHTMLTests.everyStringFromARecordIsEscaped`, every string hostile, is well-formed to xmllint too.
    @Test func thePageOfHostileStringsIsWellFormed() async throws {
        let result = try await Self.xmllint(HistoryHTMLTests.hostileHistory().html)
        #expect(Self.realErrors(result.html).isEmpty, "\(result.html)")
        #expect(result.xmlStatus == 0, "\(result.xml)")
    }
}
