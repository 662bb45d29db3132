import Foundation
import StrictJSON

extension Rig {
    /// The default rig: `rigs/simulated.json` of this package, found from the working directory or the
    /// executable's location.
    public static func defaultPath() -> String? {
        var candidates = [FileManager.default.currentDirectoryPath]
        var url = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(url.path)
            url = url.deletingLastPathComponent()
        }
        for directory in candidates {
            let path = (directory as NSString).appendingPathComponent("rigs/simulated.json")
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// Reads and validates a rig file, and the files it names (relative to it); errors are one line, `rig file PATH: …`.
    public static func load(path: String) throws(InputError) -> Rig {
        let directory = (path as NSString).deletingLastPathComponent
        var rig = try InputDocument.read(file: path) { value throws(InputError) -> Rig in
            try Rig(reading: value).readingFiles(relativeTo: directory)
        }
        rig.path = path
        return rig
    }

    /// Parses and validates rig JSON; errors name the field path (`accessories[1].power.port`) and the
    /// value as written, or the line and column of a syntax error. The files it names are read relative to the
    /// working directory.
    public static func parse(_ data: Data) throws(InputError) -> Rig {
        try Rig(reading: try InputDocument.parse(data)).readingFiles(relativeTo: "")
    }
}
