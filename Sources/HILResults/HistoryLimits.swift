/// The most `hil report --history` reads of one run and shows in history.html, so that neither its memory nor
/// its page grows without bound with what it is given.
///
/// A run with a file past `inputFileBytes` cannot be read: it is a warning naming the file, its size and the
/// limit, and is left out (none left: exit 3). Of each run read, only what the history uses is kept (verdicts,
/// test identities, measurements), so memory grows with tests × runs, not with the bytes of the runs. history.json
/// holds every run and test read (about 150 bytes per test and run); history.html shows the latest `pageRuns`
/// runs and the first `pageTests` tests (flaky, then failing, then by name) and says what it left out.
public struct HistoryLimits: Sendable, Hashable {
    /// Bytes of one file of a run: results.json, or, without one, `.run.json`, `.events.jsonl` and each record.
    /// A nightly run of the standard suites writes a results.json of well under 1 MiB; a run of 20,000 cases
    /// with their samples, about 20 MiB.
    public var inputFileBytes = 64 << 20
    /// Runs history.html shows: the latest.
    public var pageRuns = 100
    /// Tests history.html shows: flaky ones first, then failing ones, then the others by name.
    public var pageTests = 1000
    /// Measurements history.html shows in its table besides connect and discovery (by name).
    public var pageMeasurements = 100
    /// Run numbers (or commits) one list on the page names before "and N more".
    public var pageListItems = 10

    public init() {}

    /// The limits `hil report --history` reads and writes with.
    public static let standard = HistoryLimits()
}
