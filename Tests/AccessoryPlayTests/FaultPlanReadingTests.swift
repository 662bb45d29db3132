import AccessoryPlay
import HCIPackets
import StrictJSON
import TestSupport
import Testing

/// Plan files are read like rigs: unknown keys, wrong values and impossible combinations are one error
/// naming the field.
@Suite struct FaultPlanReadingTests {
    func read(_ text: String) throws(InputError) -> FaultPlan {
        try FaultPlan(reading: try InputDocument.parse(Array(text.utf8)), fallbackName: "test")
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

    @Test func aFloodAndAParameterUpdateReadWithRequestTriggers() throws {
        let plan = try read(#"""
            {"steps": [{"after_subscribe": "2A37", "do": "notify_flood", "characteristic": "2a37", "duration_ms": 2000},
                       {"after_read": "2A38", "do": "update_parameters", "interval_ms": 30, "latency": 2, "supervision_timeout_ms": 4000,
                        "expect": {"accept_parameters": true}},
                       {"after_write": "6e400002-b5a3-f393-e0a9-e50e24dcca9e", "do": "disconnect"}]}
            """#)
        #expect(plan.steps[0].trigger == .afterRequest(.subscribe, characteristic: BluetoothUUID(UInt16(0x2A37))))
        #expect(plan.steps[0].action == .notifyFlood(characteristic: BluetoothUUID(UInt16(0x2A37)), milliseconds: 2000))
        #expect(plan.steps[1].trigger == .afterRequest(.read, characteristic: BluetoothUUID(UInt16(0x2A38))))
        // 30 ms is 24 units of 1.25 ms; 4000 ms is 400 units of 10 ms (Core v5.4 Vol 4 Part E §7.8.18).
        #expect(plan.steps[1].action == .updateParameters(ConnectionParameters(intervalMin: 24, intervalMax: 24, latency: 2, supervisionTimeout: 400)))
        #expect(plan.steps[1].expectations == [.acceptParameters])
        #expect(plan.steps[2].trigger == .afterRequest(.write, characteristic: BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E") ?? .base))
    }

    /// The spec's rules for connection parameters (Core v5.4 Vol 4 Part E §7.8.18), each named.
    @Test func connectionParametersOutsideTheSpecAreRefused() {
        func update(_ keys: String) -> String? { message(#"{"steps": [{"after_connect_ms": 0, "do": "update_parameters", "# + keys + "}]}") }
        #expect(update(#""interval_ms": 31"#) == "steps[0].interval_ms: a connection interval is a multiple of 1.25 ms (7.5, 8.75, … 30, 45, …)")
        #expect(update(#""interval_ms": 5"#)?.hasPrefix("steps[0].interval_ms: expected a connection interval from 7.5 to 4000 ms") == true)
        #expect(update(#""interval_ms": 1000, "latency": 1, "supervision_timeout_ms": 3000"#)
                == "steps[0].supervision_timeout_ms: the supervision timeout (3000 ms) must be longer than (1 + latency) × interval × 2 = 4000 ms")
        #expect(update(#""interval_ms": 30, "supervision_timeout_ms": 4005"#) == "steps[0].supervision_timeout_ms: a supervision timeout is a multiple of 10 ms")
        #expect(update(#""latency": 0"#) == "steps[0].interval_ms: missing; expected a connection interval from 7.5 to 4000 ms")
    }

    /// A key that belongs to another action is named with the actions that take it; a link step needs a link.
    @Test func aKeyOfAnotherActionAndALinkStepAtATimeAreRefused() {
        #expect(message(#"{"steps": [{"after_connect_ms": 0, "do": "disconnect", "characteristic": "2A37"}]}"#)
                == "steps[0].characteristic: only a \"notify_flood\" step has characteristic")
        #expect(message(#"{"steps": [{"after_connect_ms": 0, "do": "vanish", "reason": "0x13"}]}"#)
                == "steps[0].reason: only a \"disconnect\" step has reason")
        #expect(message(#"{"steps": [{"at_ms": 5, "do": "notify_flood", "characteristic": "2A37"}]}"#)?
                .hasPrefix("steps[0].at_ms: notify_flood acts on a link") == true)
        #expect(message(#"{"steps": [{"after_read": "2A38", "after_write": "2A38", "do": "disconnect"}]}"#)?
                .hasPrefix("steps[0].after_read: a step has one trigger") == true)
        #expect(message(#"{"steps": [{"after_read": "2A3", "do": "disconnect"}]}"#)?.hasPrefix("steps[0].after_read: expected a UUID") == true)
        #expect(message(#"{"steps": [{"after_connect_ms": 0, "do": "disconnect", "expect": {"accept_parameters": true}}]}"#)
                == "steps[0].expect.accept_parameters: only an \"update_parameters\" step can expect the central to accept")
    }

    @Test func pairingStepsAndTheirExpectationsRead() throws {
        let plan = try read(#"""
            {"steps": [{"after_connect_ms": 0, "do": "require_pairing", "expect": {"pair_within_ms": 10000, "reencrypt_with_bond": true, "reencrypt_within_ms": 2000}},
                       {"at_ms": 5, "do": "refuse_pairing"},
                       {"after_connections": 2, "do": "forget_bond"},
                       {"after_connections": 3, "do": "disconnect", "expect": {"reencrypt_with_bond": true}}]}
            """#)
        #expect(plan.steps.map(\.action) == [.requirePairing, .refusePairing, .forgetBond, .disconnect(reason: HCIStatus(0x13))])
        #expect(plan.steps[0].expectations == [.pairWithin(milliseconds: 10_000), .reencryptWithBond(withinMilliseconds: 2000)])
        #expect(plan.steps[3].expectations == [.reencryptWithBond(withinMilliseconds: 5000)])
        #expect(message(#"{"steps": [{"at_ms": 5, "do": "require_pairing"}]}"#)?.hasPrefix("steps[0].at_ms: require_pairing acts on a link") == true)
        #expect(message(#"{"steps": [{"at_ms": 5, "do": "disconnect", "expect": {"pair_within_ms": 100}}]}"#)
                == "steps[0].expect.pair_within_ms: only a \"require_pairing\" step can expect the central to pair")
        #expect(message(#"{"steps": [{"at_ms": 5, "do": "forget_bond", "expect": {"reencrypt_with_bond": true}}]}"#)?
                .hasPrefix("steps[0].expect.reencrypt_with_bond: re-encryption is expected after a pairing") == true)
    }

    /// Every plan in plans/ reads.
    @Test(arguments: ["drop-and-return", "service-changed", "app-under-load"])
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
