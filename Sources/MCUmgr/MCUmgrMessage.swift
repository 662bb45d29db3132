import CBOR

/// One MCUmgr SMP message: the header and its CBOR body (a map).
package struct MCUmgrMessage: Sendable, Hashable {
    package var header: MCUmgrHeader
    package var body: CBORValue

    /// A message whose header's length is its body's.
    package init(_ operation: MCUmgrHeader.Operation, version: MCUmgrHeader.Version = .v2, group: MCUmgrGroup, command: UInt8,
                sequence: UInt8, body: CBORValue) {
        header = MCUmgrHeader(operation: operation, version: version, length: UInt16(truncatingIfNeeded: body.encoded.count),
                              group: group, sequence: sequence, command: command)
        self.body = body
    }

    package var encoded: [UInt8] { header.encoded + body.encoded }

    /// Reads one whole message: the header and exactly the body length it gives, a CBOR map.
    package init(decoding bytes: [UInt8], limits: CBORLimits = CBORLimits()) throws(MCUmgrMessageError) {
        header = try MCUmgrHeader(decoding: bytes[...])
        let end = MCUmgrHeader.size + Int(header.length)
        guard bytes.count >= end else { throw .truncated(have: bytes.count, need: end) }
        guard bytes.count == end else { throw .trailing(count: bytes.count - end) }
        do {
            body = try CBORValue(decoding: Array(bytes[MCUmgrHeader.size...]), limits: limits)
        } catch {
            throw .body(error)
        }
        guard body.entries != nil else { throw .field("body", expected: "a map", got: body) }
    }

    /// The failure the message reports: a version 2 `err` map, or a version 1 (or legacy) `rc` other than 0; nil
    /// for success. An `err` that is not a map of two integers is malformed.
    package func failure() throws(MCUmgrMessageError) -> MCUmgrFailure? {
        if let err = body["err"] {
            guard let group = err["group"]?.int, let group16 = UInt16(exactly: group) else {
                throw .field("err.group", expected: "a group ID", got: err["group"])
            }
            guard let rc = err["rc"]?.int else { throw .field("err.rc", expected: "an integer", got: err["rc"]) }
            return .group(MCUmgrGroupError(group: MCUmgrGroup(rawValue: group16), rc: rc))
        }
        guard let rc = body["rc"] else { return nil }
        guard let code = rc.int else { throw .field("rc", expected: "an integer", got: rc) }
        return code == 0 ? nil : .returnCode(MCUmgrReturnCode(rawValue: code), reason: body["rsn"]?.text)
    }

    /// Whether this is the response to `request`: the same group, command and sequence, the matching operation.
    package func answers(_ request: MCUmgrMessage) -> Bool {
        header.group == request.header.group && header.command == request.header.command
            && header.sequence == request.header.sequence && header.operation == request.header.operation.response
    }
}

/// Why bytes are not an MCUmgr SMP message we take.
package enum MCUmgrMessageError: Error, Sendable, Hashable, CustomStringConvertible {
    case truncated(have: Int, need: Int)
    case trailing(count: Int)
    case unknownOperation(UInt8)
    case unknownVersion(UInt8)
    case body(CBORError)
    /// A field missing or of the wrong kind: its name, what it should be, what came (nil: nothing).
    case field(String, expected: String, got: CBORValue?)

    package var description: String {
        switch self {
        case .truncated(let have, let need): "MCUmgr message of \(have) octets, \(need) needed"
        case .trailing(let count): "MCUmgr message with \(count) octets after its body"
        case .unknownOperation(let op): "MCUmgr header with unknown OP \(op)"
        case .unknownVersion(let version): "MCUmgr header with unknown version bits \(version)"
        case .body(let error): "MCUmgr body: \(error)"
        case .field(let name, let expected, let got): "MCUmgr field \(name): expected \(expected), got \(got.map { "\($0)" } ?? "nothing")"
        }
    }
}
