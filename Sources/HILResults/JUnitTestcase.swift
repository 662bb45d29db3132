import Foundation
import Support

/// One `<testcase>` of junit.xml, in the form junit-10.xsd allows: `name`, `classname` and `time`
/// attributes; the verdict element; and a `<system-out>` that carries what the schema has no place for —
/// the case's data as `[[PROPERTY|name=value]]` lines and its capture as an `[[ATTACHMENT|captures/…]]`
/// line (the forms Jenkins' JUnit attachments plugin and GitLab read), then the timeline, the
/// measurements with their statistics, known issues and Swift Testing attachments.
enum JUnitTestcase {
    static func render(_ result: CaseResult, suite: String, suiteProperties: [(name: String, value: String)], packageRoot: String?) -> String {
        let record = result.record
        var xml = "    <testcase classname=\"\(XMLEscaping.attribute(suite))\" name=\"\(XMLEscaping.attribute(JUnitReport.caseName(result)))\""
        xml += " time=\"\(ReportNumber.text(seconds(record.duration)))\">\n"
        let message = record.message ?? ""
        let text = located(result, packageRoot: packageRoot)
        switch record.verdict {
        case .passed:
            break
        case .failed:
            xml += "      <failure message=\"\(XMLEscaping.attribute(JUnitReport.firstLine(text)))\" type=\"product\">\(XMLEscaping.text(text))</failure>\n"
        case .infrastructureError:
            xml += "      <error message=\"\(XMLEscaping.attribute(JUnitReport.firstLine(text)))\" type=\"infrastructure\">\(XMLEscaping.text(text))</error>\n"
        case .skipped:
            xml += "      <skipped message=\"\(XMLEscaping.attribute(JUnitReport.firstLine(message)))\"/>\n"
        }
        let lines = propertyLines(result, suiteProperties: suiteProperties) + attachmentLines(record) + systemOut(result, packageRoot: packageRoot)
        if !lines.isEmpty { xml += "      <system-out>\(XMLEscaping.text(lines.joined(separator: "\n")))</system-out>\n" }
        return xml + "    </testcase>\n"
    }

    /// The message with `file:line` ahead of it, then Swift Testing's own issues when the message is not one of them.
    static func located(_ result: CaseResult, packageRoot: String?) -> String {
        let message = result.record.message ?? ""
        let location = result.failureLocation(packageRoot: packageRoot)
        var text = location.map { "\($0): \(message)" } ?? message
        for issue in result.issues where !issue.isKnown && !message.contains(issue.message) {
            let place = self.location(file: issue.filePath, line: issue.line, fallback: issue.sourceLocation, packageRoot: packageRoot)
            text += "\nSwift Testing: \(place.map { "\($0): " } ?? "")\(issue.summary)"
        }
        return text
    }

    /// `Tests/Suite/File.swift:42`: the file relative to the package root. A file outside the package
    /// (or with no package known) gives the fallback (`File.swift:42`), never an absolute path.
    static func location(file: String?, line: Int?, fallback: String?, packageRoot: String?) -> String? {
        let fallback = fallback.map { $0.hasPrefix("/") ? ($0 as NSString).lastPathComponent : $0 }
        guard let file, let line else { return fallback }
        guard file.hasPrefix("/") else { return "\(file):\(line)" }
        if let packageRoot, !packageRoot.isEmpty {
            let root = packageRoot.hasSuffix("/") ? packageRoot : packageRoot + "/"
            if file.hasPrefix(root), file.count > root.count { return "\(file.dropFirst(root.count)):\(line)" }
        }
        return fallback ?? "\((file as NSString).lastPathComponent):\(line)"
    }

    /// `[[PROPERTY|name=value]]` for the case's identity, arguments, its bench properties that are not
    /// already its suite's, and its measurements. A line break in a value is written `\n`.
    static func propertyLines(_ result: CaseResult, suiteProperties: [(name: String, value: String)]) -> [String] {
        let record = result.record
        var properties: [(String, String)] = [("testID", record.testID)]
        if let accessory = record.accessory { properties.append(("accessory", accessory)) }
        for (index, argument) in record.arguments.enumerated() { properties.append(("argument.\(index + 1)", argument)) }
        if let repetition = record.repetition { properties.append(("repetition", String(repetition))) }
        for key in record.properties.keys.sorted() {
            let value = record.properties[key] ?? ""
            if !suiteProperties.contains(where: { $0.name == key && $0.value == value }) { properties.append((key, value)) }
        }
        for measurement in record.measurements {
            properties.append(("measurement.\(measurement.name)", "\(ReportNumber.text(measurement.value, digits: 6)) \(measurement.unit)"))
        }
        return properties.map { "[[PROPERTY|\(oneLine($0.0))=\(oneLine($0.1))]]" }
    }

    /// `[[ATTACHMENT|captures/…]]` for the capture, a path inside the results directory.
    static func attachmentLines(_ record: TestRecord) -> [String] {
        record.capturePath.map { ["[[ATTACHMENT|\(oneLine($0))]]"] } ?? []
    }

    /// The timeline, the measurements with their statistics, known issues and Swift Testing attachments.
    static func systemOut(_ result: CaseResult, packageRoot: String?) -> [String] {
        var lines: [String] = []
        for event in result.record.timeline {
            let span = event.duration.map { " (+\(ReportNumber.text($0)) s)" } ?? ""
            lines.append("\(ReportNumber.text(event.offset)) s [\(event.lane.rawValue)] \(event.label)\(span)\(event.isFailure ? " ✘" : "")")
        }
        for measurement in result.record.measurements {
            var line = "\(measurement.name) = \(ReportNumber.text(measurement.value, digits: 6)) \(measurement.unit)"
            if let budget = measurement.budget { line += " (budget \(ReportNumber.text(budget, digits: 6)))" }
            if let samples = measurement.samples, !samples.isEmpty {
                let p = SampleStatistics.percentiles(samples)
                line += " n=\(samples.count) p50=\(ReportNumber.text(p.p50, digits: 6)) p95=\(ReportNumber.text(p.p95, digits: 6)) p99=\(ReportNumber.text(p.p99, digits: 6))"
            }
            lines.append(line)
        }
        for issue in result.issues where issue.isKnown {
            let place = location(file: issue.filePath, line: issue.line, fallback: issue.sourceLocation, packageRoot: packageRoot)
            lines.append("known issue: \(place.map { "\($0): " } ?? "")\(issue.summary)")
        }
        for name in result.attachments { lines.append("attachment: \(name)") }
        return lines
    }

    /// `suite skipped: reason`, then the result's known issues and attachments.
    static func suiteNote(_ result: CaseResult, packageRoot: String?) -> String {
        let verdict = result.verdict == .skipped ? "skipped" : "passed"
        let message = result.record.message.map { ": \($0)" } ?? ""
        return (["suite \(verdict)\(message)"] + systemOut(result, packageRoot: packageRoot)).joined(separator: "\n")
    }

    /// Non-finite or negative durations count as 0.
    static func seconds(_ duration: Double) -> Double {
        duration.isFinite ? max(0, duration) : 0
    }

    /// A value on one line: line breaks written as `\n`.
    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\n")
    }
}
