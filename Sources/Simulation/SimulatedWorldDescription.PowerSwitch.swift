extension SimulatedWorldDescription {
    /// A simulated USB power switch: numbered ports, each feeding one controller.
    package struct PowerSwitch: Sendable, Hashable {
        /// One port and the controller it feeds.
        package struct Port: Sendable, Hashable {
            package var number: Int
            /// The name of the controller this port powers.
            package var controller: String
            package init(number: Int, controller: String) {
                self.number = number
                self.controller = controller
            }
        }

        package var name: String
        package var ports: [Port]

        package init(name: String = "sim-switch", ports: [Port]) {
            self.name = name
            self.ports = ports
        }
    }
}
