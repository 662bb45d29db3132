import MCUbootImage
import MCUmgr

/// What `hil dfu` prints: the slots, an upload's figures, a reset; as text, or one JSON object with --json.
enum DFUPresenter {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }

    /// One slot as the accessory reported it (`--list --json`'s `images`).
    struct Slot: Encodable {
        var image: Int
        var slot: Int
        var version: String
        var hash: String?
        var active, pending, confirmed, bootable, permanent: Bool

        init(_ state: MCUmgrImageState) {
            image = state.image
            slot = state.slot
            version = state.version
            hash = state.hash.map(DFUPresenter.hex)
            active = state.active
            pending = state.pending
            confirmed = state.confirmed
            bootable = state.bootable
            permanent = state.permanent
        }
    }

    struct Slots: Encodable { var images: [Slot] }

    struct Reset: Encodable { var reset = true }

    /// An upload (`--image … --json`): the file, what moved, where the accessory resumed, the slots after test or confirm.
    struct Upload: Encodable {
        var image: String
        var version: String
        var hash: String
        /// The kinds of key its signature TLVs were made with ("ECDSA P-256", "Ed25519", …; empty: unsigned).
        var signatures: [String]
        var bytes: Int
        var chunks: Int
        var seconds: Double
        var bitsPerSecond: Double
        var resumedAt: Int
        var match: Bool?
        var images: [Slot]?
    }

    static func present(_ states: [MCUmgrImageState], json: Bool) {
        if json { return print(JSONOutput.text(Slots(images: states.map(Slot.init)))) }
        for state in states {
            let flags = [state.active ? "active" : nil, state.pending ? "pending" : nil, state.confirmed ? "confirmed" : nil,
                         state.permanent ? "permanent" : nil, state.bootable ? nil : "not bootable"].compactMap { $0 }
            print("image \(state.image) slot \(state.slot)  \(state.version)  \(state.hash.map(hex) ?? "(no hash)")  \(flags.joined(separator: ", "))")
        }
    }

    static func presentReset(json: Bool) {
        print(json ? JSONOutput.text(Reset()) : "reset      the accessory answered and resets")
    }

    static func present(_ report: MCUmgrUploadReport, image: MCUbootImage, path: String, states: [MCUmgrImageState]?, json: Bool) {
        // A fresh upload's first answer is the end of its first chunk; anything else is where the accessory already was.
        let resumedAt = report.chunks.first.map { $0.answered != $0.length ? $0.answered : 0 } ?? 0
        if json {
            return print(JSONOutput.text(Upload(image: path, version: image.version.description, hash: hex(image.hash),
                                                signatures: image.signatureKeys.map(\.description), bytes: report.imageLength,
                                                chunks: report.chunks.count, seconds: report.seconds, bitsPerSecond: report.bitsPerSecond,
                                                resumedAt: resumedAt, match: report.match, images: states.map { $0.map(Slot.init) })))
        }
        print("image      \(path): \(image.version), hash \(hex(image.hash)), \(report.imageLength) octets")
        let keys = image.signatureKeys.map(\.description).joined(separator: ", ")
        print("signed     " + (keys.isEmpty ? "no (no signature TLV)" : "\(keys)" + (image.keyHash.map { ", key hash \(hex($0))" } ?? "")))
        if resumedAt > 0 { print("resumed    at offset \(resumedAt), where the accessory had stopped") }
        print("uploaded   \(report.chunks.count) chunks in \(String(format: "%.3f", report.seconds)) s: \(Int(report.bitsPerSecond)) bit/s"
              + (report.match == true ? "; the accessory's SHA-256 matched" : ""))
        if let states { present(states, json: false) }
    }
}
