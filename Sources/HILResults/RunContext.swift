import Foundation

/// What a run ran on: the bench-level properties every testcase and suite in junit.xml carries, kept in
/// `.run.json` so `hil report` renders the same properties later.
public struct RunContext: Codable, Sendable, Hashable {
    /// Absolute path of the rig file.
    public var rig: String?
    /// The rig's name (its `name` field, else the file name without `.json`).
    public var rigName: String?
    public var host: String
    /// `git rev-parse HEAD` of the package whose suites ran.
    public var gitCommit: String?
    /// The package whose suites ran.
    public var package: String?
    /// The `hil run` command line.
    public var command: String?
    public var started: Date
    /// `HIL_REPEAT`.
    public var repeatCount: Int?
    /// Anything else to carry into junit.xml's run-level properties.
    public var properties: [String: String]

    public init(rig: String? = nil, rigName: String? = nil, host: String = RunContext.hostName(), gitCommit: String? = nil,
                package: String? = nil, command: String? = nil, started: Date = Date(), repeatCount: Int? = nil,
                properties: [String: String] = [:]) {
        self.rig = rig
        self.rigName = rigName
        self.host = host
        self.gitCommit = gitCommit
        self.package = package
        self.command = command
        self.started = started
        self.repeatCount = repeatCount
        self.properties = properties
    }

    /// The run-level properties in a stable order (JUnit `<property>`s).
    public var junitProperties: [(name: String, value: String)] {
        var list: [(String, String)] = []
        if let rigName { list.append(("rig", rigName)) }
        if let rig { list.append(("rig.file", rig)) }
        list.append(("host", host))
        if let gitCommit { list.append(("git.commit", gitCommit)) }
        if let package { list.append(("package", package)) }
        if let repeatCount { list.append(("repeat", String(repeatCount))) }
        if let command { list.append(("command", command)) }
        for key in properties.keys.sorted() { list.append((key, properties[key] ?? "")) }
        return list
    }

    /// `gethostname(2)`.
    public static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown-host" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "unknown-host" : name
    }

    public func write(to layout: ResultsLayout) throws(ResultsError) {
        let data: Data
        do { data = try TestRecord.makeEncoder().encode(self) } catch { throw ResultsError(layout.runContext.path, "cannot encode: \(error)") }
        try ResultsFile.write(data, to: layout.runContext)
    }

    public static func load(from layout: ResultsLayout) throws(ResultsError) -> RunContext {
        let url = layout.runContext
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw ResultsError(url.path, "cannot read: \(ResultsLayout.reason(error))") }
        do { return try TestRecord.makeDecoder().decode(RunContext.self, from: data) } catch let error as DecodingError {
            throw ResultsError(url.path, "not a valid run context: \(TestRecord.describe(error))")
        } catch {
            throw ResultsError(url.path, "not a valid run context: \(error)")
        }
    }
}
