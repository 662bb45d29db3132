/// A simulated world that cannot be built or operated as asked.
public struct SimulatedWorldError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem found, e.g. "controller name 'a' is used twice".
    public let problems: [String]

    public init(_ problems: [String]) { self.problems = problems }

    public var description: String {
        "simulated bench: " + problems.joined(separator: "; ")
    }
}
