/// A backend that moves a switch: it does what it is told and reports what the hardware says.
/// It is not trusted: `VerifiedPowerSwitch` wraps every actuator and checks the devices behind it.
package protocol PowerActuator: Sendable {
    /// `usb-hub:1-1.4 port 2`, `ykush:YK12345 port 1`, `pdu-outlet-3`.
    var name: String { get }
    /// Sets the output; returns the steps taken, for the transition's log.
    func apply(_ power: Power) async throws -> [String]
    /// What the hardware reports now.
    func status() async throws -> PowerStatus
    /// What the actuator itself knows to be downstream (a hub knows its ports from the topology).
    func downstream() async throws -> Downstream
    /// Evidence of its own after a transition (a process backend: the process is running and ready).
    /// Returns nil when it has none; throws when its own evidence contradicts the transition.
    func confirm(_ power: Power) async throws -> String?
}

extension PowerActuator {
    /// The outputs an actuator switches, for its name: `port 2`, `ports 1,3` (`noun` is the singular).
    static func outputs(_ noun: String, _ numbers: [Int]) -> String {
        numbers.count == 1 ? "\(noun) \(numbers[0])" : "\(noun)s " + numbers.map(String.init).joined(separator: ",")
    }
}

extension PowerActuator {
    package func downstream() async throws -> Downstream { Downstream() }
    package func confirm(_ power: Power) async throws -> String? { nil }
}

/// What verification can watch behind a switch.
package struct Downstream: Sendable, Equatable {
    /// Devices that are there now (or named by the rig) and must leave on `off`, come back on `on`.
    package var devices: [DeviceExpectation]
    /// Locations (hub ports) where anything enumerating after `on` counts as evidence.
    package var watchedLocations: [USBLocation]

    package init(devices: [DeviceExpectation] = [], watchedLocations: [USBLocation] = []) {
        self.devices = devices
        self.watchedLocations = watchedLocations
    }
}
