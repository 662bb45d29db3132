import AccessoryPlay
import Foundation
import StrictJSON
import TestSupport
import Testing

/// Plans and profiles from the hostile-use review: a `do` of 10 MB (before: 249 s and 212 MB to reject, the whole
/// value echoed), a `description` never type-checked, values echoed whole into the terminal.
@Suite struct PlanInputLimitsTests {
    func message(_ text: String) -> String? {
        do { _ = try FaultPlan(reading: try InputDocument.parse(Array(text.utf8)), fallbackName: "test"); return nil } catch { return error.message }
    }

    @Test func aTenMegabyteDoFileIsRefusedByItsSizeInOneLine() throws {
        let scratch = try TemporaryDirectory.make("hil-plan-limits")
        defer { TemporaryDirectory.remove(scratch) }
        let file = scratch.appendingPathComponent("big.json")
        let text = #"{"name": "big", "steps": [{"at_ms": 0, "do": ""# + String(repeating: "a", count: 10 << 20) + #""}]}"#
        try Data(text.utf8).write(to: file)
        #expect { try FaultPlan.read(file: file.path, fallbackName: "big") } throws: {
            ($0 as? InputError)?.message == "\(text.utf8.count) bytes, more than InputLimits.fileBytes = 1048576"
        }
    }

    @Test func aTenMegabyteDoInMemoryIsCutAtTheStringLimit() throws {
        let found = try #require(message(#"{"steps": [{"at_ms": 0, "do": ""# + String(repeating: "a", count: 10 << 20) + #""}]}"#))
        #expect(found == #"steps[0].do: a string of 10485760 bytes at line 1, column 31, more than InputLimits.stringBytes = 4096: ""#
                + String(repeating: "a", count: 32) + #"…""#)
    }

    @Test func anUnknownActionIsEchoedCutAndOnOneLine() {
        #expect(message(#"{"steps": [{"at_ms": 0, "do": ""# + String(repeating: "a", count: 4000) + #""}]}"#)
                == "steps[0].do: unknown action '" + String(repeating: "a", count: 40) + "… (4000 bytes)' (known: disconnect, vanish, stop_answering_att, "
                + "service_changed, notify_flood, update_parameters, rotate_address, require_pairing, refuse_pairing, forget_bond)")
        #expect(message(#"{"steps": [{"at_ms": 0, "do": "\u001b[2Jdisconect"}]}"#)
                == #"steps[0].do: unknown action '\u001B[2Jdisconect' (known: disconnect, vanish, stop_answering_att, service_changed, "#
                + "notify_flood, update_parameters, rotate_address, require_pairing, refuse_pairing, forget_bond)")
    }

    @Test(arguments: ["5", "[\"a\"]", "{}", "null", "false"])
    func aPlansDescriptionAndSchemaAreStrings(written: String) {
        let steps = #""steps": [{"at_ms": 0, "do": "vanish"}]"#
        #expect(message("{\"description\": \(written), \(steps)}") == "description: expected a string (what the plan does), found \(written)")
        #expect(message("{\"$schema\": \(written), \(steps)}") == "$schema: expected a string naming the plan's JSON Schema, found \(written)")
        #expect(message("{\"description\": \"drop the link twice\", \"$schema\": \"\", \(steps)}") == nil)
    }
}
