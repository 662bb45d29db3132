import Synchronization

/// A simulated USB power switch: each numbered port feeds one simulated controller. Switching a port off
/// cuts that controller's power (its host's transport closes, its peers time out); switching it on
/// brings the controller back fresh.
package final class SimulatedPowerSwitch: Sendable {
    package let name: String
    private let feeds: [Int: SimulatedController]
    private let states: Mutex<[Int: Bool]>

    init(name: String, ports: [(Int, SimulatedController)]) {
        self.name = name
        var feeds: [Int: SimulatedController] = [:]
        for (number, controller) in ports { feeds[number] = controller }
        self.feeds = feeds
        self.states = Mutex(feeds.mapValues { _ in true })
    }

    /// The port numbers, ascending.
    package var ports: [Int] { feeds.keys.sorted() }

    /// The name of the controller a port feeds, or nil for a port the switch does not have.
    package func controllerName(port: Int) -> String? { feeds[port]?.name }

    /// Whether a port is on; nil for a port the switch does not have. Every port starts on.
    package func state(port: Int) -> Bool? { states.withLock { $0[port] } }

    /// Switches a port; returns when the controller it feeds has lost or regained power. A port the switch
    /// does not have is ignored.
    package func setPort(_ port: Int, on: Bool) async {
        guard let controller = feeds[port] else { return }
        states.withLock { $0[port] = on }
        if on { await controller.powerOn() } else { await controller.powerOff() }
    }
}
