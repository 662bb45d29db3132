import Foundation

/// The runs `hil report --history DIR…` reads. Each DIR is either
/// - a results directory (it holds `results.json`, `.run.json`, `records/` or `.events.jsonl`): one run; or
/// - a directory of results directories, one level deep (a nightly archive: `nightly/2026-11-30/`, …, or
///   `scripts/nightly`'s `results/<rig>/`): each subdirectory that is a results directory is a run; other
///   entries (hidden ones, files, a build log) are passed over.
///
/// A directory reached twice (given twice, or through a symbolic link such as nightly's `latest`) is one
/// run. A DIR that is neither, and a run that cannot be read, is a warning naming it and is left out.
public enum HistoryInputs {
    public struct Loaded: Sendable {
        /// The runs read, oldest first (by `RunContext.started`, then by directory).
        public var runs: [RunResults]
        /// One line each: a DIR or a run left out and why, or something worth knowing about a run read.
        public var warnings: [String]
    }

    /// Reads the runs `arguments` name, each within `limits`, keeping of each only what the history uses.
    public static func load(_ arguments: [URL], limits: HistoryLimits = .standard) -> Loaded {
        var warnings: [String] = []
        var seen = Set<String>()
        var runs: [RunResults] = []
        for argument in arguments {
            let found = runDirectories(argument)
            if let warning = found.warning { warnings.append(warning) }
            for directory in found.directories where seen.insert(directory.resolvingSymlinksInPath().path).inserted {
                do {
                    let run = try RunResults.load(directory, limits: limits)
                    runs.append(run.keepingWhatHistoryUses())
                    warnings += run.warnings
                } catch {
                    warnings.append("skipping \(directory.path): \(error)")
                }
            }
        }
        runs.sort { ($0.context.started, $0.layout.directory.path) < ($1.context.started, $1.layout.directory.path) }
        return Loaded(runs: runs, warnings: warnings)
    }

    /// The run directories one DIR names, or why it names none.
    static func runDirectories(_ argument: URL) -> (directories: [URL], warning: String?) {
        let directory = argument.standardizedFileURL
        guard isDirectory(directory) else {
            let exists = FileManager.default.fileExists(atPath: directory.path)
            return ([], "skipping \(directory.path): \(exists ? "not a directory" : "no such directory")")
        }
        if isResultsDirectory(directory) { return ([directory], nil) }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path) } catch {
            return ([], "skipping \(directory.path): cannot list it: \(ResultsLayout.reason(error))")
        }
        let runs = names.filter { !$0.hasPrefix(".") }.sorted()
            .map { directory.appendingPathComponent($0, isDirectory: true) }
            .filter { isDirectory($0) && isResultsDirectory($0) }
        if runs.isEmpty {
            return ([], "skipping \(directory.path): neither a results directory nor a directory of results directories")
        }
        return (runs, nil)
    }

    /// Whether `directory` holds any of the files `hil run` writes first.
    static func isResultsDirectory(_ directory: URL) -> Bool {
        let layout = ResultsLayout(directory)
        return [layout.resultsJSON, layout.runContext, layout.records, layout.events].contains {
            FileManager.default.fileExists(atPath: $0.path)
        }
    }

    static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
