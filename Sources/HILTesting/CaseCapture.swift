import BenchOperations
import Foundation
import EventLoops
import HCITransports

/// One test case's btsnoop capture in the Linux monitor format (`MonitorCapture`): the central adapter as
/// controller 0 (`central`), across every reopen after a USB reset or power cycle; a simulated accessory's
/// own controller as controller 1 (its name) from its own host's side; and the case's story as system notes
/// — `hil: test begin …`, each timeline mark (power cuts, resets, connects, failures), `hil: verdict …`,
/// `hil: test end` — which Wireshark filters with `hci_mon.system_note contains "hil:"`.
public final class CaseCapture: Sendable {
    public let monitor: MonitorCapture
    /// Controller 0: the central adapter.
    public let central: MonitorCapture.Controller
    /// Controller 1: the accessory's controller, when the bench can see it (a simulated accessory).
    public let accessory: MonitorCapture.Controller

    /// The monitor index of the central adapter and of the accessory.
    public static let centralIndex: UInt16 = 0
    public static let accessoryIndex: UInt16 = 1

    /// Creates the capture at `path` (mode 0600), stamped on the bench's clock; `keys` says whether the keys
    /// that pass are redacted (the default) or kept (`hil run --capture-keys`, `HIL_CAPTURE_KEYS=1`).
    public init(path: String, clock: LoopClock, accessoryName: String?, keys: CaptureKeys = .redacted) throws(HCITransportError) {
        monitor = try MonitorCapture(path: path, clock: clock, keys: keys)
        central = monitor.controller(Self.centralIndex, name: "central")
        accessory = monitor.controller(Self.accessoryIndex, name: accessoryName ?? "peer")
    }

    public var path: String { monitor.path }

    /// What the environment asks of a case's capture: the keys kept when `HIL_CAPTURE_KEYS` is `1` (set by
    /// `hil run --capture-keys`, or by hand under plain `swift test`), else redacted.
    public static func keys(environment: [String: String] = ProcessInfo.processInfo.environment) -> CaptureKeys {
        environment["HIL_CAPTURE_KEYS"] == "1" ? .kept : .redacted
    }

    /// How the central's host is opened into this capture.
    public var centralTarget: CaptureTarget { .controller(central) }

    /// A system note, prefixed `hil: ` so a reader tells ours from others'.
    public func note(_ text: String) {
        monitor.note("hil: \(text)")
    }
}
