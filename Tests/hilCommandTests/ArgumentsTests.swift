import Foundation
import Testing
@testable import hil

@Suite struct ArgumentsTests {
    @Test func optionsFlagsAndPositionals() throws {
        var arguments = Arguments(["unix:/tmp/x", "--json", "--capture", "c.btsnoop", "--timeout=3"])
        let json = arguments.flag("json")
        let capture = try arguments.option("capture")
        let timeout = try arguments.number("timeout", in: 0...10)
        let moniker = try arguments.required("moniker")
        #expect(json)
        #expect(capture == "c.btsnoop")
        #expect(timeout == 3)
        #expect(moniker == "unix:/tmp/x")
        try arguments.finish()
    }

    @Test func leftoversAreAnError() {
        let arguments = Arguments(["--jsno"])
        #expect(throws: UsageError.self) { try arguments.finish() }
    }

    @Test func optionWithoutValueIsAnError() {
        #expect(throws: UsageError.self) {
            var arguments = Arguments(["--capture"])
            _ = try arguments.option("capture")
        }
    }

    @Test func numberOutOfRangeNamesTheOption() {
        #expect {
            var arguments = Arguments(["--timeout", "-4"])
            _ = try arguments.number("timeout", in: 0.01...600)
        } throws: { error in
            (error as? UsageError)?.description.contains("--timeout") == true
        }
    }
}

/// `hil info` end to end through the command's entry point: exit statuses for bad input.
@Suite struct InfoCommandTests {
    @Test func wrongMonikerIsAUsageError() async {
        #expect(await InfoCommand.run(Arguments(["bogus:thing"])) == .usageError)
    }

    @Test func absentSocketIsAnInfrastructureError() async {
        #expect(await InfoCommand.run(Arguments(["unix:/nonexistent/hil.sock"])) == .infrastructureError)
    }

    @Test func missingMonikerIsAUsageError() async {
        #expect(await InfoCommand.run(Arguments([])) == .usageError)
    }

    @Test func unknownOptionIsAUsageError() async {
        #expect(await InfoCommand.run(Arguments(["unix:/tmp/x", "--colour"])) == .usageError)
    }
}

/// `hil preflight` through its entry point: exit statuses on the command's own fixtures.
@Suite struct PreflightCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PreflightTests/Fixtures")

    @Test func errorsExitWithOne() async {
        let path = Self.fixtures.appendingPathComponent("ios/Info-problems.plist").path
        #expect(await PreflightCommand.run(Arguments(["ios", path, "--uses", "central,background-central", "--format", "json", "--output", "/dev/null"])) == .productFailure)
    }

    @Test func malformedInputExitsWithThree() async {
        let path = Self.fixtures.appendingPathComponent("android/malformed.xml").path
        #expect(await PreflightCommand.run(Arguments(["android", path])) == .usageError)
    }

    @Test func unknownPlatformExitsWithThree() async {
        #expect(await PreflightCommand.run(Arguments(["windows", "x"])) == .usageError)
    }
}
