// Replay mode: preflight-fuzz built without libFuzzer runs files and corpus directories through a target.
import Foundation
import Preflight

enum Replay {
    static let usage = """
        usage: preflight-fuzz TARGET FILE|DIR ...
          Runs each FILE, and each file in each DIR, through TARGET's reader (\(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))),
          naming each file on stderr before it runs, so a trap names its input. Exit 0 if none trapped.
          Built with `swift build --product preflight-fuzz --sanitize fuzzer`, this binary is a libFuzzer
          fuzzer instead (target from PREFLIGHT_FUZZ_TARGET; see scripts/fuzz/fuzz-preflight).
        """

    static func main(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
            printError(usage)
            return arguments.first == "-h" || arguments.first == "--help" ? 0 : 2
        }
        var files: [String] = []
        for path in arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                printError("preflight-fuzz: no such file or directory: \(path)")
                return 2
            }
            if isDirectory.boolValue {
                files += ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        var touched = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                printError("preflight-fuzz: cannot read \(file)")
                return 2
            }
            printError("preflight-fuzz: \(target.rawValue) \(file)")
            touched &+= target.run(data)
        }
        print("preflight-fuzz: \(files.count) file(s) ran through \(target.rawValue) without a trap (checksum \(touched & 0xFFFF))")
        return 0
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
