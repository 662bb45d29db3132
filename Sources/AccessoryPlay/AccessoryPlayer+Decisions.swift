import HostCore

extension AccessoryPlayer {
    /// Decides what can be decided of step `index`'s checks; `final` words the undecided ones for the report.
    func decide(_ index: Int, final: Bool) {
        for check in outcomes[index].checks.indices where outcomes[index].checks[check].passed == nil {
            var item = outcomes[index].checks[check]
            switch item.key {
            case FaultPlan.Expectation.rediscoverAfterServiceChanged(withinMilliseconds: 0).key:
                decideRediscovery(index, &item, final: final)
            case FaultPlan.Expectation.acceptParameters.key:
                decideParameters(outcomes[index], &item, final: final)
            case FaultPlan.Expectation.pairWithin(milliseconds: 0).key:
                decidePairing(outcomes[index], &item, final: final)
            case FaultPlan.Expectation.reencryptWithBond(withinMilliseconds: 0).key:
                decideReencryption(outcomes[index], &item, final: final)
            default:
                decideReconnect(outcomes[index], &item, final: final)
            }
            outcomes[index].checks[check] = item
        }
    }

    /// The instant, on the clock, at which the first undecided check's limit runs out (just past it: a check
    /// fails once more than its limit has passed), so that `settle()` looks again then; nil when no
    /// undecided check waits on time, only on events.
    func nextDecision() -> ContinuousClock.Instant? {
        var earliest: Double?
        for outcome in outcomes {
            for check in outcome.checks where check.passed == nil {
                let from: Double?
                switch check.key {
                case FaultPlan.Expectation.rediscoverAfterServiceChanged(withinMilliseconds: 0).key:
                    from = outcome.rediscoveredAt == nil && outcome.notToldBecause == nil ? outcome.centralToldAt : nil
                case FaultPlan.Expectation.acceptParameters.key, FaultPlan.Expectation.pairWithin(milliseconds: 0).key:
                    from = nil // decided by the step itself, when the central answers
                case FaultPlan.Expectation.reencryptWithBond(withinMilliseconds: 0).key:
                    from = outcome.reencryptedAt == nil && outcome.pairedAgainAt == nil ? outcome.nextConnectionAt : nil
                default:
                    from = outcome.reconnectDelay == nil ? outcome.advertisedAgainAt : nil
                }
                guard let from else { continue }
                let limit = from + check.limit
                earliest = min(earliest ?? limit, limit)
            }
        }
        guard let earliest else { return nil }
        // A microsecond past the limit: the check reads "more than the limit has passed" then.
        let due = log.started.advanced(by: .nanoseconds(Int64((earliest * 1_000_000).rounded(.up)) + 1_000))
        return max(due, clock.now.advanced(by: .microseconds(1)))
    }

    func decideReconnect(_ outcome: StepOutcome, _ item: inout StepOutcome.Check, final: Bool) {
        let limit = RoundedText.ms(item.limit)
        if let delay = outcome.reconnectDelay {
            item.measure(delay, "the central reconnected \(RoundedText.ms(delay)) after the accessory advertised again (limit \(limit))")
        } else if let advertised = outcome.advertisedAgainAt, log.milliseconds() - advertised > item.limit {
            item.fail("the central did not reconnect within \(limit) of the accessory advertising again")
        } else if final {
            item.message = outcome.ranAt == nil ? "not decided: the run ended before the step ran"
                : "not decided: the run ended \(outcome.advertisedAgainAt == nil ? "before the accessory advertised again" : "before the central reconnected or \(limit) passed")"
        }
    }

    func decideRediscovery(_ index: Int, _ item: inout StepOutcome.Check, final: Bool) {
        let limit = RoundedText.ms(item.limit)
        var outcome = outcomes[index]
        if outcome.rediscoveredAt == nil, let told = outcome.centralToldAt, let ranAt = outcome.ranAt, let from = outcome.changedFromHandle {
            // From the change on (a quick central may ask before the confirmation is seen here), a request reaching the changed range.
            outcome.rediscoveredAt = log.events.first { event in
                event.kind == .discovery && event.milliseconds >= ranAt && (event.endHandle ?? 0) >= from
            }.map { max($0.milliseconds, told) }
            outcomes[index] = outcome
        }
        let range = outcome.changedFromHandle.map { "handles 0x\(ATTRequestKind.hex($0))–0xFFFF" } ?? "the changed handles"
        if let delay = outcome.rediscoveryDelay {
            item.measure(delay, "the central re-discovered \(range) \(RoundedText.ms(delay)) after it was told of the change (limit \(limit))")
        } else if let why = outcome.notToldBecause {
            item.fail("the central could not re-discover: \(why)")
        } else if let told = outcome.centralToldAt, log.milliseconds() - told > item.limit {
            item.fail("the central did not re-discover \(range) within \(limit) of being told of the change (Service Changed)")
        } else if final {
            item.message = outcome.ranAt == nil ? "not decided: the run ended before the step ran"
                : "not decided: the run ended before the central \(outcome.centralToldAt == nil ? "connected again" : "re-discovered or \(limit) passed")"
        }
    }

    func decideParameters(_ outcome: StepOutcome, _ item: inout StepOutcome.Check, final: Bool) {
        if let accepted = outcome.parametersAccepted {
            item.passed = accepted
            item.measured = outcome.parametersAnsweredAfter
            item.message = outcome.parametersNote ?? (accepted ? "the central accepted" : "the central did not accept")
        } else if final {
            item.message = outcome.ranAt == nil ? "not decided: the run ended before the step ran" : "not decided: the run ended before the central answered"
        }
    }

    func decidePairing(_ outcome: StepOutcome, _ item: inout StepOutcome.Check, final: Bool) {
        if let paired = outcome.paired {
            item.measured = outcome.pairingTook
            item.passed = paired && (outcome.pairingTook ?? .infinity) <= item.limit
            item.message = (outcome.pairingNote ?? (paired ? "the central paired" : "the central did not pair")) + " (limit \(RoundedText.ms(item.limit)))"
        } else if final {
            item.message = outcome.ranAt == nil ? "not decided: the run ended before the step ran" : "not decided: the run ended before the pairing did"
        }
    }

    func decideReencryption(_ outcome: StepOutcome, _ item: inout StepOutcome.Check, final: Bool) {
        let limit = RoundedText.ms(item.limit)
        guard let connected = outcome.nextConnectionAt else {
            if final { item.message = "not decided: the central did not connect again after the step" }
            return
        }
        if let encrypted = outcome.reencryptedAt {
            item.measure(encrypted - connected, "the central encrypted with its bond \(RoundedText.ms(encrypted - connected)) after connecting again (limit \(limit))")
        } else if outcome.pairedAgainAt != nil {
            item.fail("the central paired again instead of encrypting with its bond")
        } else if log.milliseconds() - connected > item.limit {
            item.fail("the central did not encrypt the link within \(limit) of connecting again")
        } else if final {
            item.message = "not decided: the run ended before the central encrypted the link or \(limit) passed"
        }
    }
}
