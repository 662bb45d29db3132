/// The 8-octet header of an MCUmgr SMP message (Zephyr's SMP protocol specification): Res/Ver/OP, Flags, Data
/// Length, Group ID, Sequence Num, Command ID; multi-octet fields big-endian. `length` is the CBOR body's.
package struct MCUmgrHeader: Sendable, Hashable {
    /// The OP field (low three bits of the first octet).
    package enum Operation: UInt8, Sendable, Hashable {
        case read = 0, readResponse = 1, write = 2, writeResponse = 3

        /// The response operation that answers this request operation.
        package var response: Operation { self == .read ? .readResponse : self == .write ? .writeResponse : self }
    }

    /// The Ver field (bits 3–4): version 1 answers failures with `rc`, version 2 with `err: {group, rc}`.
    package enum Version: UInt8, Sendable, Hashable {
        case v1 = 0, v2 = 1
    }

    package static let size = 8

    package var operation: Operation
    package var version: Version
    package var flags: UInt8
    package var length: UInt16
    package var group: MCUmgrGroup
    package var sequence: UInt8
    package var command: UInt8

    package init(operation: Operation, version: Version = .v2, flags: UInt8 = 0, length: UInt16, group: MCUmgrGroup,
                sequence: UInt8, command: UInt8) {
        self.operation = operation
        self.version = version
        self.flags = flags
        self.length = length
        self.group = group
        self.sequence = sequence
        self.command = command
    }

    package var encoded: [UInt8] {
        [version.rawValue << 3 | operation.rawValue, flags, UInt8(length >> 8), UInt8(length & 0xFF),
         UInt8(group.rawValue >> 8), UInt8(group.rawValue & 0xFF), sequence, command]
    }

    /// Reads the first 8 octets of `bytes`.
    package init(decoding bytes: ArraySlice<UInt8>) throws(MCUmgrMessageError) {
        guard bytes.count >= Self.size else { throw .truncated(have: bytes.count, need: Self.size) }
        let octets = Array(bytes.prefix(Self.size))
        guard let operation = Operation(rawValue: octets[0] & 0x07) else { throw .unknownOperation(octets[0] & 0x07) }
        guard octets[0] & 0xE0 == 0, let version = Version(rawValue: (octets[0] >> 3) & 0x03) else {
            throw .unknownVersion(octets[0] >> 3)
        }
        self.init(operation: operation, version: version, flags: octets[1], length: UInt16(octets[2]) << 8 | UInt16(octets[3]),
                  group: MCUmgrGroup(rawValue: UInt16(octets[4]) << 8 | UInt16(octets[5])), sequence: octets[6], command: octets[7])
    }
}

/// An MCUmgr SMP group ID: the management group a command belongs to.
package struct MCUmgrGroup: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package var rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }

    /// OS management (group 0): echo, reset, …
    package static let os = MCUmgrGroup(rawValue: 0)
    /// Image management (group 1): state, upload, erase.
    package static let image = MCUmgrGroup(rawValue: 1)

    package var description: String {
        switch self {
        case .os: "OS management (group 0)"
        case .image: "image management (group 1)"
        default: "group \(rawValue)"
        }
    }
}

/// The command IDs this module sends, by group.
package enum MCUmgrCommand {
    /// OS management: echo.
    package static let echo: UInt8 = 0
    /// OS management: reset.
    package static let reset: UInt8 = 5
    /// Image management: state of images (read), set state (write).
    package static let imageState: UInt8 = 0
    /// Image management: upload a chunk.
    package static let upload: UInt8 = 1
    /// Image management: erase a slot.
    package static let erase: UInt8 = 5
}
