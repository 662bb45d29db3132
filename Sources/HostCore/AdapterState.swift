/// The adapter's state, with the cases of Core Bluetooth's `CBManagerState`, so the rule app developers
/// meet on the phone holds here too: commands (other than Reset and reads) are issued only in
/// `poweredOn`, and leaving `poweredOn` ends every connection.
public enum AdapterState: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Not yet known: the host has not initialized the controller.
    case unknown
    /// An HCI Reset is under way.
    case resetting
    /// The controller does not support Bluetooth LE.
    case unsupported
    /// The operating system refused access to the controller.
    case unauthorized
    /// The controller is gone or switched off (its transport closed).
    case poweredOff
    /// Initialized and ready for commands.
    case poweredOn

    public var description: String { rawValue }
}
