extension SimulatedBenchDescription {
    /// A simulated USB power switch: numbered ports, each feeding one controller.
    public struct PowerSwitch: Codable, Sendable, Hashable {
        /// One port and the controller it feeds.
        public struct Port: Codable, Sendable, Hashable {
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

        enum CodingKeys: String, CodingKey { case name, ports }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(name: try c.decodeIfPresent(String.self, forKey: .name) ?? "sim-switch",
                      ports: try c.decode([Port].self, forKey: .ports))
        }
    }
}
