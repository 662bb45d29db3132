/// A simulated world that cannot be built or operated as asked.
package struct SimulatedWorldError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem found, e.g. "controller name 'a' is used twice".
    package let problems: [String]

    package init(_ problems: [String]) { self.problems = problems }

    package var description: String {
        "simulated bench: " + problems.joined(separator: "; ")
    }
}
