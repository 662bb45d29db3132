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
