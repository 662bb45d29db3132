import Testing
@testable import hil

/// `--capture FILE` and `--capture-keys` on the commands that capture: the keys are redacted unless asked for,
/// and asking for them with nothing to capture is a usage error.
@Suite struct CaptureArgumentsTests {
    @Test func theKeysAreRedactedUnlessAskedFor() throws {
        var plain = Arguments(["--capture", "c.btsnoop"])
        let redacted = try CaptureArguments.parse(&plain)
        #expect(redacted.path == "c.btsnoop" && redacted.keys == .redacted)
        var kept = Arguments(["--capture-keys", "--capture=c.btsnoop"])
        let keeping = try CaptureArguments.parse(&kept)
        #expect(keeping.path == "c.btsnoop" && keeping.keys == .kept)
        var accessory = Arguments(["--capture-keys"])
        #expect(try CaptureArguments.parse(&accessory, alwaysCaptures: true).keys == .kept)
    }

    @Test(arguments: [
        ["info", "sim:central"], ["scan", "sim:central"], ["pair", "sim:central", "--name", "X"],
        ["connect", "sim:central", "--name", "X"], ["advertise", "sim:central", "--name", "X"],
        ["serve", "sim:central", "--listen", "unix:/tmp/hil-capture-keys-none"],
    ])
    func captureKeysWithoutACaptureIsAUsageError(words: [String]) async throws {
        var arguments = Arguments(["--capture-keys"])
        #expect(throws: UsageError.self) { try CaptureArguments.parse(&arguments) }
        let rest = Arguments(Array(words.dropFirst()) + ["--capture-keys"])
        let status: hil.ExitStatus? = switch words[0] {
        case "info": await InfoCommand.run(rest)
        case "scan": await ScanCommand.run(rest)
        case "pair": await PairCommand.run(rest)
        case "connect": await ConnectCommand.run(rest)
        case "advertise": await AdvertiseCommand.run(rest)
        case "serve": await ServeCommand.run(rest)
        default: nil
        }
        #expect(status == .usageError, "\(words)")
    }
}
