extension SimulatedWorldDescription {
    /// A simulated USB power switch: numbered ports, each feeding one controller.
    public struct PowerSwitch: Sendable, Hashable {
        /// One port and the controller it feeds.
        public struct Port: Sendable, Hashable {
            public var number: Int
            /// The name of the controller this port powers.
            public var controller: String
            public init(number: Int, controller: String) {
                self.number = number
                self.controller = controller
            }
        }

        public var name: String
        public var ports: [Port]

        public init(name: String = "sim-switch", ports: [Port]) {
            self.name = name
            self.ports = ports
        }
    }
}
