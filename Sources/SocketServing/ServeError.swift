/// Why a server (`hil serve`, `hil sim serve`) cannot start or do what was asked. `usage` is a command line, rig or
/// address that is wrong (exit 3); otherwise the machine refused (a socket that cannot be bound: exit 2).
package struct ServeError: Error, Sendable, CustomStringConvertible {
    package let description: String
    /// The request itself is wrong (an address that is not loopback, an unknown accessory).
    package let isUsage: Bool

    package init(_ description: String, usage: Bool = false) {
        self.description = description
        self.isUsage = usage
    }
}
