/// Why a server (`hil serve`, `hil sim serve`) cannot start or do what was asked. `usage` is a command line, rig or
/// address that is wrong (exit 3); otherwise the machine refused (a socket that cannot be bound: exit 2).
public struct ServeError: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// The request itself is wrong (an address that is not loopback, an unknown accessory).
    public let isUsage: Bool

    public init(_ description: String, usage: Bool = false) {
        self.description = description
        self.isUsage = usage
    }
}
