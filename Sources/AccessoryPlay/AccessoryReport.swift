import Foundation
import HILResults

/// Writes what a run of `hil accessory` found as a results directory, as `hil run` writes one: a record per
/// expectation (passed or failed with the measured value against its limit; skipped when the run ended
/// first), one for the central's activity (with how long each active scan lasted), then junit.xml,
/// results.json and report.html rendered from them; and `central.json` with every event, step and scan.
package enum AccessoryReport {
    /// The suite every case of the report is in.
    static let suite = "hil accessory"

    /// The file with the central's events and the steps' outcomes.
    package static func activityURL(in directory: URL) -> URL { directory.appendingPathComponent("central.json") }

    /// Creates the results directory and removes what an earlier run left in it (its records, captures and
    /// reports), before the run writes its capture there.
    package static func prepare(_ directory: URL) throws(ResultsError) {
        let layout = ResultsLayout(directory)
        try layout.create()
        try layout.removePreviousRun()
    }

    /// Writes the directory (after `prepare`) and returns the records.
    @discardableResult
    package static func write(_ result: AccessoryPlayer.Result, plan: FaultPlan, profileName: String, started: Date,
                             directory: URL, capturePath: String?, context: RunContext) throws(ResultsError) -> [TestRecord] {
        let layout = ResultsLayout(directory)
        let duration = (result.events.last?.milliseconds ?? 0) / 1000
        let timeline = result.events.compactMap(timelineEvent)
        var records: [TestRecord] = []
        for outcome in result.steps {
            for check in outcome.checks {
                let verdict: TestRecord.Verdict = switch check.passed {
                case true?: .passed
                case false?: .failed
                case nil: .skipped
                }
                let measured = measurementName(check.key)
                records.append(TestRecord(
                    testID: "AccessoryPlan.\(plan.name)/\(outcome.name)/\(check.key)", name: "\(outcome.name): \(check.key) \(Int(check.limit))",
                    suite: suite, accessory: profileName, started: started, duration: duration, verdict: verdict, message: check.message,
                    timeline: timeline, measurements: check.measured.map { [Measurement(name: measured, value: $0, unit: "ms", budget: check.limit)] } ?? [],
                    capturePath: capturePath))
            }
        }
        records.append(activityRecord(result, plan: plan, profileName: profileName, started: started, duration: duration,
                                      timeline: timeline, capturePath: capturePath))
        try layout.create()
        try context.write(to: layout)
        for record in records { try record.write(toResultsDirectory: directory) }
        try writeActivity(result, plan: plan, to: activityURL(in: directory))
        _ = try ResultsRenderer.rerender(directory)
        return records
    }

    /// What an expectation's check measures.
    static func measurementName(_ key: String) -> String {
        switch key {
        case FaultPlan.Expectation.rediscoverAfterServiceChanged(withinMilliseconds: 0).key: "rediscovery delay"
        case FaultPlan.Expectation.acceptParameters.key: "parameter update"
        default: "reconnect delay"
        }
    }

    /// The case that says what the central did: counts by kind, reconnect delays, and how the run ended.
    static func activityRecord(_ result: AccessoryPlayer.Result, plan: FaultPlan, profileName: String, started: Date, duration: Double,
                               timeline: [TimelineEvent], capturePath: String?) -> TestRecord {
        let counts = CentralEvent.Kind.allCases.compactMap { kind -> String? in
            let count = result.events.filter { $0.kind == kind }.count
            return count == 0 ? nil : "\(kind.rawValue) \(count)"
        }
        var measurements = result.steps.compactMap { outcome in
            outcome.reconnectDelay.map { Measurement(name: "reconnect delay after \(outcome.name)", value: $0, unit: "ms") }
        }
        measurements += result.steps.compactMap { outcome in
            outcome.rediscoveryDelay.map { Measurement(name: "rediscovery delay after \(outcome.name)", value: $0, unit: "ms") }
        }
        for outcome in result.steps {
            if let sent = outcome.notificationsSent { measurements.append(Measurement(name: "notifications sent in \(outcome.name)", value: Double(sent), unit: "count")) }
            if let rate = outcome.notificationsPerSecond { measurements.append(Measurement(name: "notifications a second in \(outcome.name)", value: rate, unit: "per s")) }
        }
        for scan in result.scans {
            measurements.append(Measurement(name: "scan by \(scan.scanner) from \(RoundedText.ms(scan.firstMilliseconds)) (\(scan.requests) scan requests)",
                                            value: scan.durationMilliseconds, unit: "ms"))
        }
        for kind in [CentralEvent.Kind.connected, .discovery, .read, .write, .subscribe] {
            measurements.append(Measurement(name: "\(kind.rawValue) requests", value: Double(result.events.filter { $0.kind == kind }.count), unit: "count"))
        }
        let ran = result.steps.filter { $0.ranAt != nil }.count
        let ending = result.interruption.map { "stopped early (\($0)) after \(ran) of \(result.steps.count) steps" }
            ?? "the plan ran all \(result.steps.count) steps"
        return TestRecord(testID: "AccessoryPlan.\(plan.name)/central activity", name: "central activity", suite: suite, accessory: profileName,
                          started: started, duration: duration, verdict: .passed,
                          message: "\(ending); the central's activity: \(counts.isEmpty ? "nothing" : counts.joined(separator: ", "))",
                          timeline: timeline, measurements: measurements, capturePath: capturePath)
    }

    static func timelineEvent(_ event: CentralEvent) -> TimelineEvent? {
        let lane: TimelineEvent.Lane
        switch event.kind {
        case .advertising, .scan: lane = .advertising
        case .connected, .disconnected: lane = .connection
        case .fault, .serviceChanged: lane = .power
        case .discovery, .read, .write, .subscribe, .unsubscribe, .mtu, .att: lane = .discovery
        case .notifications, .parameters, .security: lane = .connection
        case .unanswered: lane = .note
        case .update: lane = .update
        }
        return TimelineEvent(offset: event.milliseconds / 1000, lane: lane, label: event.detail, isFailure: event.kind == .unanswered)
    }

    /// `central.json`: `{"plan", "interruption", "steps": [...], "events": [...], "scans": [...]}`, and `images`
    /// (the MCUboot slots at the end) for a profile with `mcumgr`.
    static func writeActivity(_ result: AccessoryPlayer.Result, plan: FaultPlan, to url: URL) throws(ResultsError) {
        struct Activity: Encodable {
            var plan: String
            var interruption: String?
            var steps: [StepOutcome]
            var events: [CentralEvent]
            var scans: [ScanSpan]
            var images: [AccessoryImage]?
        }
        let data: Data
        do { data = try TestRecord.makeEncoder().encode(Activity(plan: plan.name, interruption: result.interruption, steps: result.steps, events: result.events,
                                                                       scans: result.scans, images: result.images.isEmpty ? nil : result.images)) } catch {
            throw ResultsError(url.path, "cannot encode the central's activity: \(error)")
        }
        try ResultsFile.write(data, to: url)
    }
}
