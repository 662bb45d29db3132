import HCIPackets

extension LEConnectionComplete.Role {
    /// The other side.
    var other: LEConnectionComplete.Role { self == .central ? .peripheral : .central }
}
