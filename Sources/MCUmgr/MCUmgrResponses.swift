import CBOR

/// One image in a slot as the device reports it in an image state response.
package struct MCUmgrImageState: Sendable, Hashable {
    /// The image number (absent when the device has one image: 0).
    package var image: Int
    /// The slot within the image: 0 primary (running), 1 secondary.
    package var slot: Int
    /// The version as the device prints it ("1.2.3" or "1.2.3.4": major.minor.revision.build).
    package var version: String
    /// The SHA-256 of the image's TLV (of header, body and protected TLVs), as MCUboot's image TLV holds it.
    package var hash: [UInt8]?
    package var bootable: Bool
    /// Set for test or confirm: MCUboot swaps it in at the next reset.
    package var pending: Bool
    package var confirmed: Bool
    /// The running image.
    package var active: Bool
    /// Stays in the primary slot after the next reset (pending and confirmed).
    package var permanent: Bool

    package init(image: Int = 0, slot: Int, version: String, hash: [UInt8]?, bootable: Bool = true, pending: Bool = false,
                confirmed: Bool = false, active: Bool = false, permanent: Bool = false) {
        self.image = image
        self.slot = slot
        self.version = version
        self.hash = hash
        self.bootable = bootable
        self.pending = pending
        self.confirmed = confirmed
        self.active = active
        self.permanent = permanent
    }

    /// Reads one entry of `images`. Fields the device leaves out are false; fields this module does not know are
    /// passed over (devices add their own).
    package init(_ value: CBORValue) throws(MCUmgrMessageError) {
        guard value.entries != nil else { throw .field("images[]", expected: "a map", got: value) }
        guard let slot = value["slot"]?.int else { throw .field("slot", expected: "an integer", got: value["slot"]) }
        guard let version = value["version"]?.text else { throw .field("version", expected: "text", got: value["version"]) }
        func flag(_ name: String) throws(MCUmgrMessageError) -> Bool {
            guard let field = value[name] else { return false }
            guard let bool = field.bool else { throw .field(name, expected: "a boolean", got: field) }
            return bool
        }
        var hash: [UInt8]?
        if let field = value["hash"] {
            guard let bytes = field.bytes else { throw .field("hash", expected: "a byte string", got: field) }
            hash = bytes
        }
        self.init(image: value["image"]?.int ?? 0, slot: slot, version: version, hash: hash, bootable: try flag("bootable"),
                  pending: try flag("pending"), confirmed: try flag("confirmed"), active: try flag("active"),
                  permanent: try flag("permanent"))
    }

    /// The entry as a device writes it: false flags left out, as Zephyr does.
    package var cbor: CBORValue {
        .deterministicMap([("image", image == 0 ? nil : .int(image)), ("slot", .int(slot)), ("version", .text(version)),
                           ("hash", hash.map { .bytes($0) }), ("bootable", bootable ? .bool(true) : nil),
                           ("pending", pending ? .bool(true) : nil), ("confirmed", confirmed ? .bool(true) : nil),
                           ("active", active ? .bool(true) : nil), ("permanent", permanent ? .bool(true) : nil)])
    }

    /// The `images` of an image state response.
    package static func list(in body: CBORValue) throws(MCUmgrMessageError) -> [MCUmgrImageState] {
        guard let images = body["images"]?.array else { throw .field("images", expected: "an array", got: body["images"]) }
        var states: [MCUmgrImageState] = []
        for image in images { states.append(try MCUmgrImageState(image)) }
        return states
    }
}

/// What an upload response says: the offset the device expects next and, on the last chunk, whether the image's
/// SHA-256 matched.
package struct MCUmgrUploadProgress: Sendable, Hashable {
    package var offset: Int
    package var match: Bool?

    package init(offset: Int, match: Bool? = nil) {
        self.offset = offset
        self.match = match
    }

    package init(_ body: CBORValue) throws(MCUmgrMessageError) {
        guard let offset = body["off"]?.int, offset >= 0 else { throw .field("off", expected: "an offset", got: body["off"]) }
        self.init(offset: offset, match: body["match"]?.bool)
    }

    package var cbor: CBORValue { .deterministicMap([("off", .int(offset)), ("match", match.map { .bool($0) })]) }
}
