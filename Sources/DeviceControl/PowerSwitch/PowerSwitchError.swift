import Support

/// The one error type of DeviceControl's switches and topology. `kind` says whose fault it is;
/// `message` is one line that names what was awaited, for how long, and what came instead.
package typealias PowerSwitchError = KindedError<PowerSwitchErrorKind>

/// Whose fault a switch's or the topology's failure is: `PowerSwitchError.Kind`.
package enum PowerSwitchErrorKind: String, Sendable, Equatable {
    /// A moniker, option or rig entry that cannot be carried out as written (a usage error).
    case invalidInput
    /// The hub, board, device or port named is not there.
    case notFound
    /// The OS refused access; the message names the node and the udev rule that fixes it.
    case permissionDenied
    /// The switch cannot do this safely (a ganged hub without `force`).
    case refused
    /// The device or command answered with an error.
    case deviceFailure
    /// Something did not answer within its deadline.
    case timeout
    /// The switch says it switched, the devices behind it say otherwise.
    case verificationFailed
    /// Not possible on this system (no usbfs, no libusb hotplug, not Linux).
    case unsupported
}

extension PowerSwitchError {
    /// True for errors in what the user wrote rather than in the bench.
    package var isUsageError: Bool { kind == .invalidInput }
}
