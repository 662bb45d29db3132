import CBOR

/// The requests an MCUmgr client sends, as Zephyr's OS and image management groups define them. Bodies are maps
/// in core deterministic key order (`CBORValue.deterministicMap`), fields left out when not given.
package enum MCUmgrRequest {
    /// OS management echo: the device answers `r` with the text `d`.
    package static func echo(_ text: String, sequence: UInt8) -> MCUmgrMessage {
        MCUmgrMessage(.write, group: .os, command: MCUmgrCommand.echo, sequence: sequence, body: .deterministicMap([("d", .text(text))]))
    }

    /// OS management reset; `force` asks the device to reset even if an application hook would refuse.
    package static func reset(force: Bool? = nil, sequence: UInt8) -> MCUmgrMessage {
        MCUmgrMessage(.write, group: .os, command: MCUmgrCommand.reset, sequence: sequence,
                      body: .deterministicMap([("force", force.map { .unsigned($0 ? 1 : 0) })]))
    }

    /// Image management state read: the images in their slots.
    package static func imageState(sequence: UInt8) -> MCUmgrMessage {
        MCUmgrMessage(.read, group: .image, command: MCUmgrCommand.imageState, sequence: sequence, body: .map([]))
    }

    /// Image management state write: marks the image with `hash` for test (pending: swapped in at the next reset,
    /// reverted at the one after unless confirmed), or confirms it (`confirm`; with no hash, the running image).
    package static func setImageState(hash: [UInt8]?, confirm: Bool, sequence: UInt8) -> MCUmgrMessage {
        MCUmgrMessage(.write, group: .image, command: MCUmgrCommand.imageState, sequence: sequence,
                      body: .deterministicMap([("hash", hash.map { .bytes($0) }), ("confirm", confirm ? .bool(true) : nil)]))
    }

    /// The fields of an image upload request other than its data.
    package struct Upload: Sendable, Hashable {
        /// The offset of the chunk in the image.
        package var offset: Int
        /// The whole image's length: required with offset 0.
        package var length: Int?
        /// SHA-256 of the whole image, sent with offset 0: identifies the upload so the device can resume it.
        package var sha: [UInt8]?
        /// The image number (absent: 0).
        package var image: Int?
        /// Only an upgrade is accepted (a version above the running one).
        package var upgrade: Bool?

        package init(offset: Int, length: Int? = nil, sha: [UInt8]? = nil, image: Int? = nil, upgrade: Bool? = nil) {
            self.offset = offset
            self.length = length
            self.sha = sha
            self.image = image
            self.upgrade = upgrade
        }
    }

    /// Image management upload of one chunk.
    package static func upload(_ fields: Upload, data: [UInt8], sequence: UInt8) -> MCUmgrMessage {
        MCUmgrMessage(.write, group: .image, command: MCUmgrCommand.upload, sequence: sequence, body: .deterministicMap([
            ("off", .int(fields.offset)), ("data", .bytes(data)), ("len", fields.length.map { .int($0) }),
            ("sha", fields.sha.map { .bytes($0) }), ("image", fields.image.map { .int($0) }), ("upgrade", fields.upgrade.map { .bool($0) }),
        ]))
    }

    /// Image management erase of `slot` (absent: the device's default, slot 1).
    package static func erase(slot: Int? = nil, sequence: UInt8) -> MCUmgrMessage {
        MCUmgrMessage(.write, group: .image, command: MCUmgrCommand.erase, sequence: sequence,
                      body: .deterministicMap([("slot", slot.map { .int($0) })]))
    }
}

extension MCUmgrRequest {
    /// The image data an upload request with `fields` can carry in a message of at most `maximum` octets (header
    /// included), computed as smpclient and the mcumgr tools do: the room the request with empty data leaves,
    /// less the octets the data's length takes in its CBOR head (a length of 24 or more takes 1, 256 or more 2,
    /// 65,536 or more 4). 0 when nothing fits.
    package static func uploadRoom(_ fields: Upload, maximum: Int) -> Int {
        let available = maximum - upload(fields, data: [], sequence: 0).encoded.count
        let head = available < 24 ? 0 : available <= 0xFF ? 1 : available <= 0xFFFF ? 2 : 4
        return max(0, available - head)
    }

    /// The largest upload request of `image` from `fields.offset` that fits `maximum` octets: the chunk up to the
    /// room there is, or the rest of the image. Nil when the room is 0.
    package static func upload(of image: [UInt8], _ fields: Upload, maximum: Int, sequence: UInt8) -> MCUmgrMessage? {
        let room = uploadRoom(fields, maximum: maximum)
        guard room > 0, fields.offset >= 0, fields.offset <= image.count else { return nil }
        let end = min(image.count, fields.offset + room)
        return upload(fields, data: Array(image[fields.offset..<end]), sequence: sequence)
    }
}
