import Foundation
import Testing
@testable import HILRunner

/// Fixture files and scratch directories for the runner's tests.
enum Fixtures {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// `Fixtures/<path>` in the test bundle.
    static func url(_ path: String) throws -> URL {
        guard let root = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw Missing(description: "the Fixtures resource directory is not in the test bundle")
        }
        let url = root.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(description: "no fixture \(path)") }
        return url
    }

    /// A parsed fixture event stream.
    static func run(_ name: String) throws -> SwiftTestingRun {
        let loaded = SwiftTestingRun.load(try url("events/\(name).jsonl"))
        #expect(loaded.errors.isEmpty, "fixture \(name): \(loaded.errors)")
        return loaded.run
    }

    /// A fresh directory under the system temp directory, removed by the caller's `defer`.
    static func temporaryDirectory(_ label: String = "hil") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A copy of a fixture directory in a fresh temp directory.
    static func copy(_ path: String) throws -> URL {
        let destination = try temporaryDirectory("hil-fixture").appendingPathComponent("results", isDirectory: true)
        try FileManager.default.copyItem(at: try url(path), to: destination)
        return destination
    }

    static func remove(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Records for tests.
enum SampleRecords {
    static let start = Date(timeIntervalSince1970: 1_795_964_000)

    static func record(_ name: String, accessory: String? = nil, verdict: TestRecord.Verdict = .passed, message: String? = nil,
                       location: String? = nil, offset: Double = 0, timeline: [TimelineEvent] = [], measurements: [HILRunner.Measurement] = [],
                       properties: [String: String] = ["adapter": "usb:0", "controller.bdaddr": "00:1B:DC:0A:0B:0C"]) -> TestRecord {
        TestRecord(testID: "HILTests.PowerOffTests/\(name)()/PowerOffTests.swift:10:6", name: "\(name)()", suite: "PowerOffTests",
                   accessory: accessory, started: start.addingTimeInterval(offset), duration: 0.84, verdict: verdict, message: message,
                   sourceLocation: location, timeline: timeline, measurements: measurements,
                   capturePath: "captures/\(name)-\(accessory ?? "none").btsnoop", properties: properties)
    }

    static let context = RunContext(rig: "/rigs/lab-bench-1.json", rigName: "lab-bench-1", host: "bench-host",
                                    gitCommit: "0123456789abcdef0123456789abcdef01234567", package: "/work/main",
                                    command: "hil run --rig rigs/lab-bench-1.json", started: start.addingTimeInterval(-1))

    /// Four records: passed, failed with file:line, infrastructure error, skipped — one per accessory.
    static func mixed() -> [TestRecord] {
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
