import Foundation
import HILResults

/// Test records, a run context and a mixed set of verdicts, for the tests of results and of the runner.
public enum SampleRecords {
    public static let start = Date(timeIntervalSince1970: 1_795_964_000)

    public static func record(_ name: String, accessory: String? = nil, verdict: TestRecord.Verdict = .passed, message: String? = nil,
                       location: String? = nil, offset: Double = 0, timeline: [TimelineEvent] = [], measurements: [HILResults.Measurement] = [],
                       properties: [String: String] = ["adapter": "usb:0", "controller.bdaddr": "00:1B:DC:0A:0B:0C"]) -> TestRecord {
        TestRecord(testID: "HILTests.PowerOffTests/\(name)()/PowerOffTests.swift:10:6", name: "\(name)()", suite: "PowerOffTests",
                   accessory: accessory, started: start.addingTimeInterval(offset), duration: 0.84, verdict: verdict, message: message,
                   sourceLocation: location, timeline: timeline, measurements: measurements,
                   capturePath: "captures/\(name)-\(accessory ?? "none").btsnoop", properties: properties)
    }

    public static let context = RunContext(rig: "/rigs/lab-bench-1.json", rigName: "lab-bench-1", host: "bench-host",
                                    gitCommit: "0123456789abcdef0123456789abcdef01234567", package: "/work/main",
                                    command: "hil run --rig rigs/lab-bench-1.json", started: start.addingTimeInterval(-1))

    /// Four records: passed, failed with file:line, infrastructure error, skipped — one per accessory.
    public static func mixed() -> [TestRecord] {
        [
            record("powerOffWhileConnected", accessory: "thermometer", offset: 0,
                   timeline: [TimelineEvent(offset: 0, duration: 0.2, lane: .power, label: "power off (verified: 1 device left)"),
                              TimelineEvent(offset: 0.31, lane: .connection, label: "Disconnection Complete 0x08 Connection Timeout")]),
            record("powerOffWhileConnected", accessory: "scale", verdict: .failed,
                   message: "awaited Disconnection Complete within 2 s, observed none", location: "PowerOffTests.swift:42", offset: 1,
                   timeline: [TimelineEvent(offset: 2.0, lane: .connection, label: "no Disconnection Complete", isFailure: true)]),
            record("advertiseAfterPowerOn", accessory: "thermometer", verdict: .infrastructureError,
                   message: "adapter usb:0 did not answer HCI_Reset within 1 s", offset: 2),
            record("reconnect", accessory: "thermometer", verdict: .skipped, message: "bench broke earlier: adapter usb:0 stopped answering", offset: 3),
        ]
    }
}
