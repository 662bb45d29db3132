import CLibUSB

/// A libusb call that failed: libusb's error code (`LIBUSB_ERROR_ACCESS`, …) and what was being done.
///
/// Each layer turns it into its own error (DeviceControl's `PowerSwitchError`, HCIUSB's
/// `HCITransportError`) with the same message, so a failure reads the same wherever libusb is used.
package struct LibUSBError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `libusb_error` value (negative).
    package let code: Int32
    /// What failed, with libusb's name for why.
    package let message: String

    /// libusb's name for the code: `LIBUSB_ERROR_ACCESS`.
    package var name: String { Self.name(code) }

    package var description: String { message }

    /// libusb's name for an error code (`libusb_error_name`): `LIBUSB_ERROR_ACCESS`.
    package static func name(_ code: Int32) -> String { String(cString: libusb_error_name(code)) }
}
