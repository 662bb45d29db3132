// Replay mode: hci-fuzz built without libFuzzer runs files, corpus directories and seeded random
// inputs through the same callback.
import Foundation
import SeededRandom

enum Replay {
    static let usage = """
        usage: hci-fuzz [--target NAME] [--random N] [--seed S] [--verbose] [FILE|DIR ...]
               hci-fuzz --list
          Runs each FILE, and each file in each DIR, through the fuzz callback of target NAME
          (default: $HIL_FUZZ_TARGET, else hci); with --random N, also N generated inputs (for hci
          well-formed H4 packets with random fields, for the others random bytes, and mutations of
          the files given) from a fixed seed (--seed to change it). A trap is a bug; exit 0 if none.
          --list prints the targets.
          Built with `swift build --product hci-fuzz --sanitize fuzzer`, this binary is a libFuzzer
          fuzzer instead and takes libFuzzer's options (see scripts/fuzz/fuzz).
        """

    static func main(_ arguments: [String]) -> Int32 {
        var paths: [String] = []
        var randomCount = 0
        var seed: UInt64 = 0x4843_4946_555A_5A01
        var verbose = false
        var target = FuzzTarget.fromEnvironment
        var index = 0
        func value(_ name: String) -> String? {
            index += 1
            guard index < arguments.count else {
                printError("hci-fuzz: \(name) needs a value")
                return nil
            }
            return arguments[index]
        }
        while index < arguments.count {
            let word = arguments[index]
            switch word {
            case "--random":
                guard let text = value(word), let count = Int(text), count >= 0 else { return usageError() }
                randomCount = count
            case "--seed":
                guard let text = value(word), let number = UInt64(text) else { return usageError() }
                seed = number
            case "--verbose":
                verbose = true
            case "--target":
                guard let name = value(word) else { return usageError() }
                target = FuzzTarget.named(name)
                if target == nil {
                    printError("hci-fuzz: no target \(name) (targets: \(FuzzTarget.names))")
                    return 2
                }
            case "--list":
                for target in FuzzTarget.all { print("\(target.name)\t\(target.summary)") }
                return 0
            case "-h", "--help":
                print(usage)
                return 0
            default:
                if word.hasPrefix("-") {
                    printError("hci-fuzz: unknown option \(word) (libFuzzer options need the --sanitize fuzzer build)")
                    return usageError()
                }
                paths.append(word)
            }
            index += 1
        }
        guard let target else {
            printError("hci-fuzz: HIL_FUZZ_TARGET names no target (targets: \(FuzzTarget.names))")
            return 2
        }
        if paths.isEmpty && randomCount == 0 { return usageError() }
        CrashReport.install()

        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                printError("hci-fuzz: no such file or directory: \(path)")
                return 2
            }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }

        var corpus: [[UInt8]] = []
        var touched = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                printError("hci-fuzz: cannot read \(file)")
                return 2
            }
            if verbose { printError("hci-fuzz: \(file)") }
            let input = [UInt8](data)
            CrashReport.current(input, label: "\(target.name): \(file)")
            touched &+= target.run(input)
            corpus.append(input)
        }

        var generator = SplitMix64(seed: seed)
        for number in 0..<randomCount {
            let input = if !corpus.isEmpty && generator.next() % 2 == 0 {
                mutate(corpus[Int(generator.next() % UInt64(corpus.count))], using: &generator)
            } else if target.name == "hci" {
                generate(using: &generator)
            } else {
                (0..<Int(generator.next() % 96)).map { _ in generator.byte() }
            }
            CrashReport.current(input, label: "\(target.name): random input #\(number) of --seed \(seed)")
            touched &+= target.run(input)
        }
        print("hci-fuzz: \(target.name): \(files.count) file(s) and \(randomCount) random input(s) ran without a trap (checksum \(touched & 0xFFFF))")
        return 0
    }

    private static func usageError() -> Int32 {
        printError(usage)
        return 2
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    // MARK: - Generated inputs

    /// Event codes and LE subevents the host decodes, plus neighbours.
    private static let eventCodes: [UInt8] = [0x05, 0x08, 0x0C, 0x0E, 0x0F, 0x10, 0x13, 0x1A, 0x3E, 0x3E, 0x3E, 0xFF]
    private static let subevents: [UInt8] = [0x01, 0x02, 0x02, 0x03, 0x04, 0x07, 0x0A, 0x0C, 0x0D, 0x0D, 0x11, 0x12, 0x14, 0x29, 0x3F]

    /// A control byte, then one to four H4 packets whose length fields match their payloads.
    private static func generate(using generator: inout SplitMix64) -> [UInt8] {
        var bytes = [generator.byte()]
        for _ in 0..<(1 + generator.next() % 4) {
            let indicator = UInt8(1 + generator.next() % 5)
            var payload = (0..<Int(generator.next() % 48)).map { _ in generator.byte() }
            bytes.append(indicator)
            switch indicator {
            case 0x01, 0x03:  // command, SCO: 2 header bytes, 1-byte length
                bytes += [generator.byte(), generator.byte(), UInt8(payload.count)]
            case 0x04:  // event: code, 1-byte length
                let code = eventCodes[Int(generator.next() % UInt64(eventCodes.count))]
                if code == 0x3E { payload.insert(subevents[Int(generator.next() % UInt64(subevents.count))], at: 0) }
                if code == 0x3E && payload.count > 1 && generator.next() % 2 == 0 { payload[1] = 1 }  // one report
                bytes += [code, UInt8(payload.count)]
            default:  // ACL, ISO: 2 header bytes, 2-byte length
                bytes += [generator.byte(), generator.byte(), UInt8(payload.count), 0]
            }
            bytes += payload
        }
        if generator.next() % 8 == 0 { bytes.append(generator.byte()) }  // a stray trailing byte
        return bytes
    }

    /// A few random byte changes, insertions, deletions or a truncation.
    private static func mutate(_ input: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + generator.next() % 4) {
            let position = bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count))
            switch generator.next() % 4 {
            case 0 where !bytes.isEmpty: bytes[position] = generator.byte()
            case 1: bytes.insert(generator.byte(), at: position)
            case 2 where !bytes.isEmpty: bytes.remove(at: position)
            default: bytes = Array(bytes.prefix(position))
            }
        }
        return bytes
    }
}
