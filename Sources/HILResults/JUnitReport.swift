import Foundation

/// junit.xml: one `<testsuite>` per suite, one `<testcase>` per test case × accessory × argument.
///
/// - `<properties>` on each suite (the run's: rig, host, git commit, …, and the bench properties every
///   case of the suite shares) and on each testcase (its record's properties: adapter moniker,
///   controller manufacturer/version/BD_ADDR, power switch, accessory identity; and its capture);
/// - a product failure is `<failure message=… type="product">` with `file:line` in the text and the
///   `file`/`line` attributes on the testcase; an infrastructure error is `<error type="infrastructure">`;
///   a skip is `<skipped message=…/>`;
/// - the timeline and measurements go to `<system-out>`.
public enum JUnitReport {
    public static func render(_ assembly: Assembly) -> String {
        let summary = assembly.summary
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"hil run\" tests=\"\(summary.total)\" failures=\"\(summary.failed)\" errors=\"\(summary.infrastructureErrors)\""
        xml += " skipped=\"\(summary.skipped)\" time=\"\(Markup.number(summary.duration))\" timestamp=\"\(ISO8601.string(assembly.context.started))\">\n"
        var suites: [String] = []
        var bySuite: [String: [CaseResult]] = [:]
        for result in assembly.cases {
            let suite = suiteName(result)
            if bySuite[suite] == nil { suites.append(suite) }
            bySuite[suite, default: []].append(result)
        }
        for suite in suites {
            let cases = bySuite[suite] ?? []
            let failed = cases.filter { $0.verdict == .failed }.count
            let errors = cases.filter { $0.verdict == .infrastructureError }.count
            let skipped = cases.filter { $0.verdict == .skipped }.count
            let time = cases.reduce(0) { $0 + ($1.record.duration.isFinite ? Swift.max(0, $1.record.duration) : 0) }
            let timestamp = cases.map(\.record.started).min() ?? assembly.context.started
            xml += "  <testsuite name=\"\(Markup.escape(suite))\" tests=\"\(cases.count)\" failures=\"\(failed)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
            xml += " time=\"\(Markup.number(time))\" timestamp=\"\(ISO8601.string(timestamp))\" hostname=\"\(Markup.escape(assembly.context.host))\">\n"
            xml += "    <properties>\n"
            let completeness: [(name: String, value: String)] = assembly.isComplete ? [] : [("run.complete", "false")]
            for property in assembly.context.junitProperties + completeness + sharedProperties(cases) {
                xml += "      <property name=\"\(Markup.escape(property.name))\" value=\"\(Markup.escape(property.value))\"/>\n"
            }
            xml += "    </properties>\n"
            for result in cases { xml += testcase(result) }
            xml += "  </testsuite>\n"
        }
        if !assembly.problems.isEmpty {
            // Problems apart from the cases still show in a CI's JUnit view: a testcase each in a suite "hil".
            let errors = assembly.problems.filter { $0.outcome >= .infrastructureError }.count
            let failures = assembly.problems.filter { $0.outcome == .productFailure }.count
            xml += "  <testsuite name=\"hil\" tests=\"\(assembly.problems.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"0\">\n"
            for (index, problem) in assembly.problems.enumerated() {
                let text = Markup.escape(problem.message)
                let message = Markup.escape(firstLine(problem.message))
                xml += "    <testcase classname=\"hil\" name=\"run problem \(index + 1)\" time=\"0\">\n"
                switch problem.outcome {
                case .usageError: xml += "      <error message=\"\(message)\" type=\"input\">\(text)</error>\n"
                case .infrastructureError: xml += "      <error message=\"\(message)\" type=\"infrastructure\">\(text)</error>\n"
                case .productFailure: xml += "      <failure message=\"\(message)\" type=\"product\">\(text)</failure>\n"
                case .passed: xml += "      <system-out>\(text)</system-out>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// `Module.Suite.Inner` from the test ID, or the record's suite.
    static func suiteName(_ result: CaseResult) -> String {
        let parts = TestIDParts(result.record.testID)
        let path = parts.suitePath.isEmpty ? (result.record.suite.isEmpty ? [] : [result.record.suite]) : parts.suitePath
        let name = ([parts.module].filter { !$0.isEmpty } + path).joined(separator: ".")
        return name.isEmpty ? "tests" : name
    }

    /// `test [accessory, argument]`.
    static func caseName(_ result: CaseResult) -> String {
        let tags = CaseResult.bracketTags(result.record)
        let name = result.record.name.isEmpty ? TestIDParts(result.record.testID).function : TestIDParts.trimParameters(result.record.name)
        return tags.isEmpty ? name : "\(name) [\(tags.joined(separator: ", "))]"
    }

    /// Record properties with the same value in every case of a suite.
    static func sharedProperties(_ cases: [CaseResult]) -> [(name: String, value: String)] {
        guard let first = cases.first?.record.properties else { return [] }
        return first.keys.sorted().compactMap { key in
            let value = first[key] ?? ""
            return cases.allSatisfy({ $0.record.properties[key] == value }) ? (key, value) : nil
        }
    }

    static func testcase(_ result: CaseResult) -> String {
        let record = result.record
        var attributes = "classname=\"\(Markup.escape(suiteName(result)))\" name=\"\(Markup.escape(caseName(result)))\" time=\"\(Markup.number(record.duration.isFinite ? Swift.max(0, record.duration) : 0))\""
        if let file = result.failureFile { attributes += " file=\"\(Markup.escape(file))\"" }
        if let line = result.failureLine { attributes += " line=\"\(line)\"" }
        var xml = "    <testcase \(attributes)>\n"
        var properties: [(String, String)] = [("testID", record.testID)]
        if let accessory = record.accessory { properties.append(("accessory", accessory)) }
        for (index, argument) in record.arguments.enumerated() { properties.append(("argument.\(index + 1)", argument)) }
        if let repetition = record.repetition { properties.append(("repetition", String(repetition))) }
        for key in record.properties.keys.sorted() { properties.append((key, record.properties[key] ?? "")) }
        if let capture = record.capturePath { properties.append(("capture", capture)) }
        for measurement in record.measurements {
            properties.append(("measurement.\(measurement.name)", "\(Markup.number(measurement.value, digits: 6)) \(measurement.unit)"))
        }
        xml += "      <properties>\n"
        for (name, value) in properties {
            xml += "        <property name=\"\(Markup.escape(name))\" value=\"\(Markup.escape(value))\"/>\n"
        }
        xml += "      </properties>\n"
        let message = record.message ?? ""
        var located = record.sourceLocation.map { "\($0): \(message)" } ?? message
        // Swift Testing's own issues, when the record's message is not one of them.
        for issue in result.issues where !issue.isKnown && !message.contains(issue.message) {
            located += "\nSwift Testing: \(issue.sourceLocation.map { "\($0): " } ?? "")\(issue.summary)"
        }
        switch record.verdict {
        case .passed:
            break
        case .failed:
            xml += "      <failure message=\"\(Markup.escape(firstLine(located)))\" type=\"product\">\(Markup.escape(located))</failure>\n"
        case .infrastructureError:
            xml += "      <error message=\"\(Markup.escape(firstLine(located)))\" type=\"infrastructure\">\(Markup.escape(located))</error>\n"
        case .skipped:
            xml += "      <skipped message=\"\(Markup.escape(firstLine(message)))\"/>\n"
        }
        let out = systemOut(result)
        if !out.isEmpty { xml += "      <system-out>\(Markup.escape(out))</system-out>\n" }
        xml += "    </testcase>\n"
        return xml
    }

    static func systemOut(_ result: CaseResult) -> String {
        var lines: [String] = []
        for event in result.record.timeline {
            let span = event.duration.map { " (+\(Markup.number($0)) s)" } ?? ""
            lines.append("\(Markup.number(event.offset)) s [\(event.lane.rawValue)] \(event.label)\(span)\(event.isFailure ? " ✘" : "")")
        }
        for measurement in result.record.measurements {
            var line = "\(measurement.name) = \(Markup.number(measurement.value, digits: 6)) \(measurement.unit)"
            if let budget = measurement.budget { line += " (budget \(Markup.number(budget, digits: 6)))" }
            if let samples = measurement.samples, !samples.isEmpty {
                let p = SampleStatistics.percentiles(samples)
                line += " n=\(samples.count) p50=\(Markup.number(p.p50, digits: 6)) p95=\(Markup.number(p.p95, digits: 6)) p99=\(Markup.number(p.p99, digits: 6))"
            }
            lines.append(line)
        }
        for issue in result.issues where issue.isKnown { lines.append("known issue: \(issue.sourceLocation.map { "\($0): " } ?? "")\(issue.summary)") }
        for name in result.attachments { lines.append("attachment: \(name)") }
        return lines.joined(separator: "\n")
    }

    /// The first line of a message: what one-line outputs show of it.
    public static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
