import Foundation
import Support

/// junit.xml: one `<testsuite>` per suite, one `<testcase>` per test case × accessory × argument, valid
/// against the xunit-plugin schema junit-10.xsd (what Jenkins, GitLab and most readers accept).
///
/// - `<testsuites>` carries the run's counts and time only (the schema allows no more there); the run's
///   start is the suites' `run.started` property;
/// - each suite's `<properties>` holds the run's properties once (rig, host, git commit, …) and the bench
///   properties every case of the suite shares, each name once;
/// - a testcase's own data (test ID, accessory, arguments, its bench properties, measurements) are
///   `[[PROPERTY|name=value]]` lines and its capture an `[[ATTACHMENT|captures/…]]` line in its
///   `<system-out>` (the schema forbids `<properties>` in a testcase), see `JUnitTestcase`;
/// - a product failure is `<failure type="product">`, an infrastructure error `<error type="infrastructure">`,
///   both with `file:line` (relative to the package root) leading the message; a skip is `<skipped>`;
/// - a suite that was skipped (or passed) as a whole is no testcase: its verdict and reason are lines
///   of the suite's `<system-out>`, so `tests`/`skipped` count testcases only.
public enum JUnitReport {
    public static func render(_ assembly: Assembly) -> String {
        var suites: [String] = []
        var bySuite: [String: [CaseResult]] = [:]
        for result in assembly.cases {
            let suite = suiteName(result)
            if bySuite[suite] == nil { suites.append(suite) }
            bySuite[suite, default: []].append(result)
        }
        var body = ""
        var totals = (tests: 0, failures: 0, errors: 0)
        for suite in suites {
            let all = bySuite[suite] ?? []
            let cases = all.filter { !$0.isSuiteNote }
            let notes = all.filter(\.isSuiteNote)
            let failed = cases.filter { $0.verdict == .failed }.count
            let errors = cases.filter { $0.verdict == .infrastructureError }.count
            let skipped = cases.filter { $0.verdict == .skipped }.count
            totals = (totals.tests + cases.count, totals.failures + failed, totals.errors + errors)
            let time = cases.reduce(0) { $0 + JUnitTestcase.seconds($1.record.duration) }
            let timestamp = all.map(\.record.started).min() ?? assembly.context.started
            body += "  <testsuite name=\"\(XMLEscaping.attribute(suite))\" tests=\"\(cases.count)\" failures=\"\(failed)\" errors=\"\(errors)\" skipped=\"\(skipped)\""
            body += " time=\"\(surefireTime(time))\" timestamp=\"\(ISO8601.string(timestamp))\" hostname=\"\(XMLEscaping.attribute(assembly.context.host))\">\n"
            body += "    <properties>\n"
            let properties = suiteProperties(assembly, cases: cases)
            for property in properties {
                body += "      <property name=\"\(XMLEscaping.attribute(property.name))\" value=\"\(XMLEscaping.attribute(property.value))\"/>\n"
            }
            body += "    </properties>\n"
            let root = assembly.context.package
            for result in cases { body += JUnitTestcase.render(result, suite: suite, suiteProperties: properties, packageRoot: root) }
            let out = notes.map { JUnitTestcase.suiteNote($0, packageRoot: root) }.joined(separator: "\n")
            if !out.isEmpty { body += "    <system-out>\(XMLEscaping.text(out))</system-out>\n" }
            body += "  </testsuite>\n"
        }
        if !assembly.allProblems.isEmpty {
            let problems = assembly.allProblems
            body += problemsSuite(problems)
            totals = (totals.tests + problems.count, totals.failures + problems.filter { $0.outcome == .productFailure }.count,
                      totals.errors + problems.filter { $0.outcome >= .infrastructureError }.count)
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"hil run\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"\(totals.errors)\""
        xml += " time=\"\(surefireTime(assembly.summary.duration))\">\n"
        return xml + body + "</testsuites>\n"
    }

    /// The run's properties, then the bench properties every case of the suite shares; a name only once
    /// (a record's `rig` is the run's).
    static func suiteProperties(_ assembly: Assembly, cases: [CaseResult]) -> [(name: String, value: String)] {
        var list = assembly.context.junitProperties
        if !assembly.isComplete { list.append(("run.complete", "false")) }
        list.append(("run.started", ISO8601.string(assembly.context.started)))
        for property in sharedProperties(cases) where !list.contains(where: { $0.name == property.name }) { list.append(property) }
        return list
    }

    /// Problems apart from the cases still show in a CI's JUnit view: a testcase each in a suite "hil" — an
    /// interruption as `<error type="interrupted">` in the testcase "run interrupted", which CI counts as an
    /// error like any other.
    static func problemsSuite(_ problems: [Assembly.Problem]) -> String {
        let errors = problems.filter { $0.outcome >= .infrastructureError }.count
        let failures = problems.filter { $0.outcome == .productFailure }.count
        var xml = "  <testsuite name=\"hil\" tests=\"\(problems.count)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"0\">\n"
        for (index, problem) in problems.enumerated() {
            let text = XMLEscaping.text(problem.message)
            let message = XMLEscaping.text(firstLine(problem.message))
            let name = problem.outcome == .interrupted ? "run interrupted" : "run problem \(index + 1)"
            xml += "    <testcase classname=\"hil\" name=\"\(name)\" time=\"0\">\n"
            switch problem.outcome {
            case .interrupted: xml += "      <error message=\"\(message)\" type=\"interrupted\">\(text)</error>\n"
            case .usageError: xml += "      <error message=\"\(message)\" type=\"input\">\(text)</error>\n"
            case .infrastructureError: xml += "      <error message=\"\(message)\" type=\"infrastructure\">\(text)</error>\n"
            case .productFailure: xml += "      <failure message=\"\(message)\" type=\"product\">\(text)</failure>\n"
            case .passed: xml += "      <system-out>\(text)</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        return xml + "  </testsuite>\n"
    }

    /// `Module.Suite.Inner` from the test ID, or the record's suite; a suite's own test ID names itself.
    static func suiteName(_ result: CaseResult) -> String {
        let parts = TestIDParts(result.record.testID)
        if CaseResult.isSuiteID(result.record.testID) {
            let name = ([parts.module].filter { !$0.isEmpty } + parts.suitePath + [parts.function]).joined(separator: ".")
            if !name.isEmpty { return name }
        }
        let path = parts.suitePath.isEmpty ? (result.record.suite.isEmpty ? [] : [result.record.suite]) : parts.suitePath
        let name = ([parts.module].filter { !$0.isEmpty } + path).joined(separator: ".")
        return name.isEmpty ? "tests" : name
    }

    /// The case's one name, as the terminal, the CI lines and report.html show it: `CaseResult.displayName`
    /// (`Suite/Inner/test [accessory, argument]`); the classname keeps the suite for grouping.
    static func caseName(_ result: CaseResult) -> String {
        result.displayName
    }

    /// Record properties with the same value in every case of a suite.
    static func sharedProperties(_ cases: [CaseResult]) -> [(name: String, value: String)] {
        guard let first = cases.first?.record.properties else { return [] }
        return first.keys.sorted().compactMap { key in
            let value = first[key] ?? ""
            return cases.allSatisfy({ $0.record.properties[key] == value }) ? (key, value) : nil
        }
    }

    /// Seconds as the schema's SUREFIRE_TIME wants them: digits, at most three decimals, never negative.
    static func surefireTime(_ seconds: Double) -> String {
        seconds.isFinite && seconds > 0 ? ReportNumber.text(seconds) : "0"
    }

    /// The first line of a message: what one-line outputs show of it.
    public static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
