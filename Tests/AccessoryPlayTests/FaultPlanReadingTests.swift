import AccessoryPlay
import HCI
import RigFormat
import TestSupport
import Testing

/// Plan files are read like rigs: unknown keys, wrong values and impossible combinations are one error
/// naming the field.
@Suite struct FaultPlanReadingTests {
    func read(_ text: String) throws(RigError) -> FaultPlan {
        try FaultPlan(reading: try RigDocument.parse(Array(text.utf8)), fallbackName: "test")
    }

    func message(_ text: String) -> String? {
        do { _ = try read(text); return nil } catch { return error.message }
    }

    @Test func theSimplestDropAndReturnReads() throws {
        let plan = try read(#"{"steps": [{"after_connect_ms": 1000, "do": "disconnect", "reason": "0x13", "advertise_after_ms": 2000, "expect": {"reconnect_within_ms": 5000}}]}"#)
        let step = try #require(plan.steps.first)
        #expect(plan.name == "test")
        #expect(step.trigger == .afterConnect(milliseconds: 1000, connections: 1))
        // 0x13 is Remote User Terminated Connection (Core v5.4 Vol 1 Part F §1.3).
        #expect(step.action == .disconnect(reason: HCIStatus(0x13)))
        #expect(step.advertiseAfterMilliseconds == 2000)
        #expect(step.expectations == [.reconnectWithin(milliseconds: 5000)])
    }

    @Test func aDecimalReasonIsTheSameCode() throws {
        let plan = try read(#"{"steps": [{"after_connections": 2, "do": "disconnect", "reason": 19}]}"#)
        #expect(plan.steps.first?.action == .disconnect(reason: HCIStatus(0x13)))
        #expect(plan.steps.first?.trigger == .afterConnect(milliseconds: 0, connections: 2))
    }

    @Test func anUnknownKeyIsNamedWithADidYouMean() {
        #expect(message(#"{"steps": [{"after_conect_ms": 1000, "do": "vanish"}]}"#) == "steps[0].after_conect_ms: unknown key; did you mean after_connect_ms?")
        #expect(message(#"{"steps": [{"at_ms": 1, "do": "vanish", "expect": {"reconnect_in_ms": 5}}]}"#)?.hasPrefix("steps[0].expect.reconnect_in_ms: unknown key") == true)
    }

    @Test func anUnknownActionIsNamed() {
        #expect(message(#"{"steps": [{"at_ms": 1, "do": "disconect"}]}"#) == "steps[0].do: unknown action 'disconect'; did you mean disconnect?")
    }

    /// HCI Disconnect takes only the reasons Core v5.4 Vol 4 Part E §7.1.6 lists; 0x16 is the local host's.
    @Test func aReasonDisconnectCannotSendIsRefused() {
        #expect(message(#"{"steps": [{"at_ms": 1, "do": "disconnect", "reason": "0x16"}]}"#)?.hasPrefix("steps[0].reason: expected a disconnect reason (0x05, 0x13") == true)
    }

    @Test func aStepNeedsExactlyOneTrigger() {
        #expect(message(#"{"steps": [{"do": "vanish"}]}"#)?.hasPrefix("steps[0]: missing a trigger") == true)
        #expect(message(#"{"steps": [{"at_ms": 5, "after_connect_ms": 5, "do": "vanish"}]}"#)?.hasPrefix("steps[0].at_ms: a step has one trigger") == true)
        #expect(message(#"{"steps": [{"at_ms": 5, "do": "stop_answering_att"}]}"#)?.hasPrefix("steps[0].at_ms: stop_answering_att acts on a link") == true)
    }

    @Test func aServiceChangedStepExpectsRediscoveryWithinItsLimit() throws {
        let plan = try read(#"{"steps": [{"after_connect_ms": 1000, "do": "service_changed", "expect": {"rediscover_after_service_changed": true}}]}"#)
        #expect(plan.steps.first?.action == .serviceChanged)
        #expect(plan.steps.first?.expectations == [.rediscoverAfterServiceChanged(withinMilliseconds: 10_000)])
        let limited = try read(#"{"steps": [{"at_ms": 5, "do": "service_changed", "expect": {"rediscover_after_service_changed": true, "rediscover_within_ms": 2500}}]}"#)
        #expect(limited.steps.first?.expectations == [.rediscoverAfterServiceChanged(withinMilliseconds: 2500)])
    }

    /// Each expectation must be one the step can produce: re-discovery follows Service Changed only, a reconnect a
    /// step that ends the link only.
    @Test func anExpectationTheStepCannotProduceIsRefused() {
        #expect(message(#"{"steps": [{"at_ms": 1, "do": "vanish", "expect": {"rediscover_after_service_changed": true}}]}"#)
                == "steps[0].expect.rediscover_after_service_changed: only a \"service_changed\" step can expect re-discovery")
        #expect(message(#"{"steps": [{"at_ms": 1, "do": "service_changed", "expect": {"reconnect_within_ms": 5000}}]}"#)
                == "steps[0].expect.reconnect_within_ms: a \"service_changed\" step keeps the link up: there is nothing to reconnect after")
        #expect(message(#"{"steps": [{"at_ms": 1, "do": "service_changed", "advertise_after_ms": 5}]}"#)?
                .hasPrefix("steps[0].advertise_after_ms: a \"service_changed\" step keeps the link up") == true)
        #expect(message(#"{"steps": [{"at_ms": 1, "do": "service_changed", "expect": {"rediscover_after_service_changed": false}}]}"#)
                == "steps[0].expect.rediscover_after_service_changed: only true can be expected (leave it out to expect nothing)")
        #expect(message(#"{"steps": [{"at_ms": 1, "do": "service_changed", "expect": {"rediscover_within_ms": 5}}]}"#)
                == "steps[0].expect.rediscover_within_ms: goes with \"rediscover_after_service_changed\": true")
    }

    /// Every plan in plans/ reads.
    @Test(arguments: ["drop-and-return", "service-changed"])
    func theShippedPlansRead(name: String) throws {
        let path = repositoryRoot.appendingPathComponent("plans/\(name).json").path
        let plan = try FaultPlan.read(file: path, fallbackName: name)
        #expect(plan.name == name)
        #expect(!plan.steps.isEmpty)
    }

    @Test func anEmptyPlanIsRefused() {
        #expect(message(#"{"steps": []}"#)?.hasPrefix("steps: expected a non-empty array of steps") == true)
    }
}
