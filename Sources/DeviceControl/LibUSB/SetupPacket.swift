/// A USB control transfer's setup stage (USB 2.0 §9.3): what libusb_control_transfer sends.
package struct SetupPacket: Hashable, Sendable, CustomStringConvertible {
    package var requestType: UInt8
    package var request: UInt8
    package var value: UInt16
    package var index: UInt16
    package var length: UInt16

    /// The eight bytes on the wire, little-endian.
    package var bytes: [UInt8] {
        [requestType, request, UInt8(value & 0xFF), UInt8(value >> 8),
         UInt8(index & 0xFF), UInt8(index >> 8), UInt8(length & 0xFF), UInt8(length >> 8)]
    }

    /// True when data flows device-to-host (bit 7 of bmRequestType).
    package var isIn: Bool { requestType & 0x80 != 0 }

    package var description: String { bytes.map { byteHex($0) }.joined(separator: " ") }
}

/// `0a`: two lowercase hex digits.
func byteHex(_ byte: UInt8) -> String {
    let text = String(byte, radix: 16)
    return text.count == 1 ? "0" + text : text
}

/// `0x0009`.
func wordHex(_ word: UInt16) -> String { "0x" + USBID.hex4(word) }
