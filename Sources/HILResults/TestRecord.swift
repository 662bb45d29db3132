import Foundation

/// What the harness records about one test case (one test × accessory × argument) beyond what Swift
/// Testing reports: the timeline, measurements, the verdict's class, the capture. The HILTesting traits
/// write one as `records/<id>.json` in the results directory (`HIL_RESULTS`) when a test case ends;
/// `hil run` joins them with the Swift Testing event stream to build junit.xml, results.json and
/// report.html.
public struct TestRecord: Codable, Sendable, Hashable {
    /// Swift Testing's test ID (`Module.Suite/test()/File.swift:L:C`) — the key that joins the two streams.
    public var testID: String
    /// The test's display name.
    public var name: String
    /// The suite's display name.
    public var suite: String
    /// The accessory the case ran against (rig name of the accessory), if parameterized over accessories.
    public var accessory: String?
    /// Other arguments, rendered ("repeat 3", "interval 30 ms").
    public var arguments: [String]
    /// Wall-clock start of the case (ISO 8601 when encoded).
    public var started: Date
    /// Duration in seconds.
    public var duration: Double
    /// The harness's own classification; Swift Testing's pass/fail is joined later.
    public var verdict: Verdict
    /// Why: the awaited-vs-observed message of a failure, an infrastructure error or a skip reason.
    public var message: String?
    /// `file:line` of the failing check, when known.
    public var sourceLocation: String?
    public var timeline: [TimelineEvent]
    public var measurements: [Measurement]
    /// Path of the btsnoop capture, relative to the results directory (`captures/<id>.btsnoop`).
    public var capturePath: String?
    /// Bench properties for JUnit: rig, adapter moniker, controller manufacturer/version/BD_ADDR, power
    /// switch, accessory identity, host, git commit.
    public var properties: [String: String]
    /// Which repetition of the case this is (1-based), when one test case writes a record per repetition
    /// (`HIL_REPEAT`); nil when the case ran once or keeps its repetitions as measurement samples.
    public var repetition: Int?
    /// The energy of each transition the case marked, when a meter is on the accessory's supply (nil: none).
    public var energy: [TransitionEnergy]?
    /// The meter's current trace over the whole case, when a meter is on the accessory's supply (nil: none).
    public var trace: CaseTrace?

    public init(testID: String, name: String, suite: String, accessory: String? = nil, arguments: [String] = [],
                started: Date, duration: Double, verdict: Verdict, message: String? = nil, sourceLocation: String? = nil,
                timeline: [TimelineEvent] = [], measurements: [Measurement] = [], capturePath: String? = nil,
                properties: [String: String] = [:], repetition: Int? = nil, energy: [TransitionEnergy]? = nil,
                trace: CaseTrace? = nil) {
        self.energy = energy
        self.trace = trace
        self.testID = testID
        self.name = name
        self.suite = suite
        self.accessory = accessory
        self.arguments = arguments
        self.started = started
        self.duration = duration
        self.verdict = verdict
        self.message = message
        self.sourceLocation = sourceLocation
        self.timeline = timeline
        self.measurements = measurements
        self.capturePath = capturePath
        self.properties = properties
        self.repetition = repetition
    }

    /// Product failures and bench failures are different verdicts (exit 1 vs exit 2).
    public enum Verdict: String, Codable, Sendable, Hashable {
        case passed
        /// The accessory failed a transition.
        case failed
        /// The bench failed: an adapter that stops answering, a switch that cannot be verified, a missing peer.
        case infrastructureError
        /// Not run, with the reason in `message` (the rig lacks what the test needs, or the bench broke earlier).
        case skipped
    }
}

/// One thing that happened during a test, on one lane of the timeline.
public struct TimelineEvent: Codable, Sendable, Hashable {
    /// The lanes of the report's SVG timeline; `update` holds a firmware update's steps (the upload's chunks
    /// summarised, its cut and resume, the image the device runs).
    public enum Lane: String, Codable, Sendable, Hashable, CaseIterable {
        case power, advertising, connection, security, discovery, adapter, recovery, update, note
    }

    /// Seconds from the start of the test case.
    public var offset: Double
    /// Seconds it lasted, for spans (a connection attempt, a power-off period); nil for instants.
    public var duration: Double?
    public var lane: Lane
    /// What happened, e.g. "power off (verified: …)", "LE Connection Complete handle 0x0040",
    /// "Disconnection Complete 0x08 Connection Timeout".
    public var label: String
    /// Whether it was the thing that went wrong.
    public var isFailure: Bool

    public init(offset: Double, duration: Double? = nil, lane: Lane, label: String, isFailure: Bool = false) {
        self.offset = offset
        self.duration = duration
        self.lane = lane
        self.label = label
        self.isFailure = isFailure
    }
}

/// A measured quantity, with the budget it was held to when there is one.
public struct Measurement: Codable, Sendable, Hashable {
    public var name: String
    public var value: Double
    /// "s", "ms", "%", "count".
    public var unit: String
    public var budget: Double?
    /// For loops: every sample, for the report's histograms and percentiles.
    public var samples: [Double]?

    public init(name: String, value: Double, unit: String, budget: Double? = nil, samples: [Double]? = nil) {
        self.name = name
        self.value = value
        self.unit = unit
        self.budget = budget
        self.samples = samples
    }
}
