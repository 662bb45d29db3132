/// A peer the tests need (btvirt, a lock on it) could not be had; says which and why.
public struct PeerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
