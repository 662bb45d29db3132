import BenchOperations
import DeviceControl
import Foundation
import EventLoops
import HostCore
import Roles
import HILResults
import Rigs
import Simulation
import Testing

/// One test case on the leased bench, from its opening to its record: `begin` brings the bench to a known
/// state (accessories powered, a fresh adapter host after HCI Reset, the recovery ladder if the adapter does
/// not answer, the case's capture started); `finish` classifies what the body threw (product failure or
/// bench failure), writes the record for `hil run`, and attaches it under plain `swift test`.
final class CaseSession: Sendable {
    let context: HILCase
    private let record: TestRecord
    private let results: URL?
    private let temporaryCapture: String?
    /// Files of the case's own outside a results directory (a command meter's CSV), removed when it ends.
    private let temporaryFiles: [String]

    private init(context: HILCase, record: TestRecord, results: URL?, temporaryCapture: String?, temporaryFiles: [String]) {
        self.context = context
        self.record = record
        self.results = results
        self.temporaryCapture = temporaryCapture
        self.temporaryFiles = temporaryFiles
    }

    /// Opens the case for `name` (an accessory of the rig, or none). A bench that cannot be brought up is
    /// marked broken, its record written (infrastructure error), and a `BenchError` thrown.
    static func begin(rig: Rig, accessory name: String?, clock: LoopClock) async throws -> CaseSession {
        let bench = Bench.shared
        let accessory = name.flatMap { rig.accessory(named: $0) }
        if let name, accessory == nil { throw BenchError("the rig has no accessory named \(name)") }
        let testID = Test.current.map { String(describing: $0.id) } ?? "unknown"
        let testName = Test.current?.name ?? "unknown"
        let suite = TestIDParts(testID).suitePath.joined(separator: "/")
        var record = TestRecord(testID: testID, name: testName, suite: suite, accessory: name, started: Date(), duration: 0, verdict: .passed)
        let results = ProcessInfo.processInfo.environment["HIL_RESULTS"].map { URL(fileURLWithPath: $0) }
        var capturePath: String?
        var temporaryCapture: String?
        if let results {
            let layout = ResultsLayout(results)
            try? layout.create()
            capturePath = layout.captureURL(for: record).path
            record.capturePath = ResultsLayout.captureRelativePath(for: record)
        } else if Test.current != nil {
            // Under plain `swift test` the capture is still taken, to be attached to the test, then removed.
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("hil-capture-\(UUID().uuidString.prefix(8)).btsnoop").path
            capturePath = path
            temporaryCapture = path
        }
        var recoverySteps: [RecoveryStep] = []
        var temporaryFiles: [String] = []
        var capture: CaseCapture?
        do {
            if let capturePath {
                capture = try CaseCapture(path: capturePath, clock: clock, accessoryName: name, keys: CaseCapture.keys())
                capture?.note("test begin: \(CaseResult.displayName(record)) on rig \(rig.name)")
                if let name { await bench.tapAccessory(name, into: capture?.accessory) }
            }
            try await bench.powerAllOn()
            var central: LEDevice
            var info: ControllerInfo
            var opened: LEDevice?
            do {
                let device = LEDevice(host: try await bench.openAdapter(capture: capture?.centralTarget))
                opened = device
                info = try await device.start()
                central = device
            } catch {
                // The adapter does not answer: climb the recovery ladder (HCI Reset → USB reset → reopen →
                // its hub port's power cycle) before calling the bench broken. The host that did open is the
                // ladder's to reset first, and to close before the later rungs (it holds the adapter).
                let recovered = await bench.recoverAdapter(trying: opened?.host, capture: capture?.centralTarget, after: error)
                recoverySteps = recovered.steps
                guard let host = recovered.host else {
                    await opened?.close()
                    throw BenchError("\(rig.adapter.moniker) does not answer and did not recover: \(recovered.steps.map(\.description).joined(separator: "; "))")
                }
                if let opened, opened.host === host {
                    central = opened
                } else {
                    await opened?.close()
                    central = LEDevice(host: host)
                }
                info = try await central.start()
            }
            var meter = if let name { await bench.meter(for: name) } else { nil as (any AccessoryMeter)? }
            if meter == nil, let name {
                // A command meter records the case from here: its program started, its first sample awaited.
                let csv = results.map { ResultsLayout($0).meterRecordingURL(for: record).path }
                    ?? FileManager.default.temporaryDirectory.appendingPathComponent("hil-meter-\(UUID().uuidString.prefix(8)).csv").path
                if let command = try await bench.commandMeter(for: name, recordingTo: csv) {
                    try await command.begin(at: clock.now)
                    meter = command
                    if results == nil { temporaryFiles.append(csv) }
                }
            }
            let context = HILCase(rig: rig, accessory: accessory, central: central, clock: clock, capture: capture, meter: meter)
            for step in recoverySteps {
                context.mark(.recovery, step.description, duration: step.duration, failure: step.result != .recovered)
            }
            context.mark(.adapter, "HCI Reset: \(info.manufacturer) \(info.hciVersion), \(info.address)")
            record.properties = [
                TestRecord.PropertyKey.adapter: rig.adapter.moniker, TestRecord.PropertyKey.controllerManufacturer: info.manufacturer.description,
                TestRecord.PropertyKey.controllerVersion: info.hciVersion.name, TestRecord.PropertyKey.controllerAddress: info.address.description,
                "rig": rig.name,
            ]
            if let accessory {
                record.properties[TestRecord.PropertyKey.accessoryIdentity] = accessory.match.description
                if let power = accessory.power { record.properties[TestRecord.PropertyKey.powerSwitch] = "\(power.switchName) port \(power.port)" }
            }
            return CaseSession(context: context, record: record, results: results, temporaryCapture: temporaryCapture, temporaryFiles: temporaryFiles)
        } catch {
            let reason = "bench not ready: \(error)"
            await bench.markBroken(reason)
            record.verdict = .infrastructureError
            record.message = reason
            record.timeline = recoverySteps.map { TimelineEvent(offset: $0.startOffset / .seconds(1), duration: $0.duration / .seconds(1), lane: .recovery,
                                                                label: $0.description, isFailure: $0.result != .recovered) }
            await end(capture, record, accessory: name)
            write(record, results)
            if results == nil { HILCase.attach(record, capture: temporaryCapture) }
            if let temporaryCapture { try? FileManager.default.removeItem(atPath: temporaryCapture) }
            throw BenchError(reason)
        }
    }

    /// Ends the case after its body returned, or threw `thrown`: closes the central, classifies the error,
    /// writes and attaches the record, removes a temporary capture.
    func finish(thrown: (any Error)?) async {
        var thrown = thrown
        // What the host was told, and what the case's GATT clients saw themselves (their reports reach the host
        // in a task of their own, which may not have run yet when a real-time case ends).
        var violations = await context.central.host.protocolViolations
        for link in context.links.withLock({ $0 }) {
            for violation in await link.gatt.violations where !violations.contains(violation) { violations.append(violation) }
        }
        if let first = violations.first { context.mark(.note, first.description, failure: true) }
        await context.central.close()
        var record = record
        let snapshot = context.state.withLock { $0 }
        record.timeline = snapshot.timeline
        record.measurements = snapshot.measurements
        if context.meter != nil {
            // A meter that cannot measure the case's spans is the bench's trouble, unless the case failed first.
            do {
                record.energy = try await context.measuredEnergy()
                let layout = results.map(ResultsLayout.init)
                record.trace = try await context.recordTrace(to: layout?.traceURL(for: record), relativePath: ResultsLayout.traceRelativePath(for: record))
            } catch { thrown = thrown ?? error }
            await (context.meter as? CommandMeter)?.end()
        }
        record.properties.merge(snapshot.properties) { _, new in new }
        record.duration = context.elapsed
        if let first = violations.first {
            // The accessory broke the protocol: its failure, whatever went wrong after it.
            record.verdict = .failed
            record.message = ProtocolViolationVerdict.message(first, count: violations.count, thrown: thrown)
            record.properties.merge(ProtocolViolationVerdict.properties(first, count: violations.count)) { _, new in new }
            record.sourceLocation = thrown.flatMap { context.throwSites.location(of: $0) }
            if thrown == nil { Issue.record(Comment(rawValue: record.message ?? first.description)) }
        } else if let thrown {
            if HILCase.isInfrastructure(thrown) {
                record.verdict = .infrastructureError
                await Bench.shared.markBroken("\(thrown)")
            } else {
                record.verdict = .failed
            }
            record.message = "\(thrown)"
            record.sourceLocation = context.throwSites.location(of: thrown)
        }
        await Self.end(context.capture, record, accessory: record.accessory)
        Self.write(record, results)
        if results == nil { HILCase.attach(record, capture: temporaryCapture) }
        if let temporaryCapture { try? FileManager.default.removeItem(atPath: temporaryCapture) }
        for file in temporaryFiles { try? FileManager.default.removeItem(atPath: file) }
    }

    /// Ends the case's capture: its verdict and the end as notes; the accessory's controller no longer shown.
    private static func end(_ capture: CaseCapture?, _ record: TestRecord, accessory name: String?) async {
        guard let capture else { return }
        if let name { await Bench.shared.tapAccessory(name, into: nil) }
        capture.note("verdict: \(record.verdict.rawValue)\(record.message.map { ": \($0)" } ?? "")")
        capture.note("test end: \(CaseResult.displayName(record))")
    }

    private static func write(_ record: TestRecord, _ results: URL?) {
        guard let results else { return }
        _ = try? record.write(toResultsDirectory: results)
    }
}
