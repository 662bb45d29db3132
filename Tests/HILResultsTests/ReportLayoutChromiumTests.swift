import Foundation
@testable import HILResults
import Testing
import TestSupport

/// report.html as a reader sees it, measured by a layout engine we did not write: Debian's headless
/// Chromium loads a realistic report at 1280 CSS px (scripts/checks/check-report-layout drives it over the
/// DevTools protocol) and says whether anything scrolls sideways or sticks out past the right edge, whether
/// histogram and timeline labels overlap, and in which order the verdicts come. The report and Chromium's
/// full-page screenshot are kept in `artifacts` after the run. Without Chromium these tests fail:
/// scripts/install-deps installs it. CPU-heavy (a browser): in scripts/test's heavy list. Chromium is a peer we
/// did not write; its 4 min limit is a headless browser's start and two page loads on a loaded 2-core machine,
/// many times over.
@Suite(.serialized, .tags(.peer), .timeLimit(.minutes(4))) struct ReportLayoutChromiumTests {
    static let width = 1280
    /// Where the reports and screenshots stay for a person (or CI) to look at.
    static let artifacts = FileManager.default.temporaryDirectory.appendingPathComponent("hil-report-layout", isDirectory: true)

    @Test func aRealisticReportFitsAt1280PixelsWithFailuresFirstAndNoLabelOverprinted() async throws {
        let assembly = try RealisticAssembly.make()
        let (facts, report, screenshot) = try await Self.layout(HTMLReport.render(assembly), name: "realistic")
        let see = "(report \(report.path), screenshot \(screenshot.path))"

        #expect(facts["innerWidth"] as? Int == Self.width, "Chromium's window \(see)")
        // The width left beside the vertical scroll bar.
        let viewport = try #require(facts["viewportWidth"] as? Int)
        #expect(try #require(facts["scrollWidth"] as? Int) <= viewport, "the page scrolls sideways \(see)")
        #expect((facts["overflowing"] as? [Any])?.isEmpty == true, "boxes or text past the right edge: \(facts["overflowing"] ?? "?") \(see)")
        #expect((facts["labelOverlaps"] as? [Any])?.isEmpty == true, "SVG labels overprint: \(facts["labelOverlaps"] ?? "?") \(see)")
        let histograms = assembly.cases.flatMap(\.record.measurements).filter { ($0.samples?.count ?? 0) >= 2 }.count
        let svgs = try #require(facts["svgCount"] as? Int)
        #expect(histograms >= 4 && svgs >= histograms, "every loop's histogram is drawn \(see)")
        #expect(try #require(facts["smallestSVGFontPx"] as? Double) >= 10, "figure labels legible \(see)")
        #expect(try #require(facts["messageColumnWidth"] as? Int) >= 400, "the failure message gets the room \(see)")
        #expect(facts["scriptElements"] as? Int == 0)

        for key in ["tableVerdicts", "detailVerdicts"] {
            let verdicts = try #require(facts[key] as? [String])
            #expect(verdicts.count == assembly.cases.count, "\(key): a row per case")
            let attention: Set = ["failed", "infrastructureError"]
            let lastAttention = verdicts.lastIndex { attention.contains($0) } ?? -1
            let firstOther = verdicts.firstIndex { !attention.contains($0) } ?? verdicts.count
            #expect(lastAttention >= 0 && firstOther < verdicts.count, "\(key): the sample has failures and passes")
            #expect(lastAttention < firstOther, "\(key): failures and infrastructure errors come before the rest: \(verdicts)")
            #expect(verdicts.first == "failed", "\(key): product failures first: \(verdicts)")
        }

        let png = try Data(contentsOf: screenshot)
        let size = Self.pngSize(png)
        #expect(size?.width == Self.width, "the screenshot is a \(Self.width) px wide PNG \(see)")
        #expect((size?.height ?? 0) > 900, "the screenshot holds the whole page \(see)")
    }

    /// The check can fail: a page with an unbreakable 3000 px token and two labels drawn on one spot.
    @Test func theCheckSeesOverflowAndOverprintedLabels() async throws {
        let page = """
        <!DOCTYPE html><html><head><meta charset="utf-8"><title>broken</title></head><body>
        <table class="cases"><tbody><tr class="passed"><td>\(String(repeating: "captures/x.btsnoop", count: 30))</td></tr>
        <tr class="failed"><td class="message">late failure</td></tr></tbody></table>
        <svg width="200" height="40" viewBox="0 0 200 40"><text x="20" y="20">p95</text><text x="24" y="22">p99</text></svg>
        </body></html>
        """
        let (facts, _, _) = try await Self.layout(page, name: "broken", expectProblems: true)
        #expect(try #require(facts["scrollWidth"] as? Int) > Self.width)
        #expect((facts["overflowing"] as? [Any])?.isEmpty == false)
        #expect((facts["labelOverlaps"] as? [[String: Any]])?.first?["a"] as? String == "p95")
        #expect(facts["tableVerdicts"] as? [String] == ["passed", "failed"])
        #expect((facts["problems"] as? [String])?.contains { $0.contains("comes after a pass") } == true)
    }

    /// Writes `html` to `artifacts/<name>.html`, has scripts/checks/check-report-layout measure it in Chromium,
    /// and returns what Chromium measured with the report's and the screenshot's paths.
    static func layout(_ html: String, name: String, expectProblems: Bool = false) async throws -> (facts: [String: Any], report: URL, screenshot: URL) {
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let report = artifacts.appendingPathComponent("\(name).html"), screenshot = artifacts.appendingPathComponent("\(name).png")
        try? FileManager.default.removeItem(at: screenshot)
        try html.write(to: report, atomically: true, encoding: .utf8)
        let script = repositoryRoot.appendingPathComponent("scripts/checks/check-report-layout").path
        let ran = await runProgramCapturing(script, [report.path, "--width", String(width), "--screenshot", screenshot.path, "--timeout", "100"])
        let status = ran.termination?.exitStatus ?? 127
        try #require(status == 0 || status == 1, "scripts/checks/check-report-layout could not measure \(report.path) in Chromium (exit \(status)): \(ran.stderr)")
        #expect(status == (expectProblems ? 1 : 0), "check-report-layout: \(ran.stderr) (screenshot \(screenshot.path))")
        let facts = try JSONSerialization.jsonObject(with: Data(ran.stdout.utf8)) as? [String: Any]
        return (try #require(facts, "check-report-layout printed no JSON object: \(ran.stdout.prefix(300))"), report, screenshot)
    }

    /// A PNG's width and height from its IHDR chunk (PNG specification §11.2.2); nil for anything else.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
              bytes[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        func big(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (big(16), big(20))
    }
}
