import Foundation
import MCUbootImage
import MCUmgr
import StrictJSON

/// What makes a played accessory an MCUmgr SMP server with MCUboot's two slots (a profile's `mcumgr`): the image
/// it runs at the start (an imgtool image file, or one made for a declared version), the slot size and how long
/// the flash takes. `AccessoryPlayer` serves Sources/MCUmgr's `MCUmgrServer` over `MCUbootSlots` made from it.
package struct AccessoryUpdates: Sendable {
    /// The image in the primary slot at the start, confirmed.
    package var running: MCUbootImage
    package var slotSize: Int
    package var timing: MCUbootSlots.Timing

    package init(running: MCUbootImage, slotSize: Int = 384 * 1024, timing: MCUbootSlots.Timing = MCUbootSlots.Timing()) {
        self.running = running
        self.slotSize = slotSize
        self.timing = timing
    }

    /// The keys of a profile's `mcumgr` object.
    static let keys = ["image", "version", "slot_size_kib", "erase_ms", "write_ms_per_kib", "swap_ms"]

    /// Reads `{"image": "app.signed.bin"}` (an imgtool image, relative to `directory`) or `{"version": "1.0.0"}`
    /// (an unsigned image made for that version), with `slot_size_kib` (default 384), `erase_ms` (500),
    /// `write_ms_per_kib` (2) and `swap_ms` (2000).
    package init(reading value: InputValue, directory: String) throws(InputError) {
        self = try value.object(keys: Self.keys, "an mcumgr object") { fields throws(InputError) -> AccessoryUpdates in
            let image: MCUbootImage
            switch (fields.value("image"), fields.value("version")) {
            case (let path?, nil):
                image = try Self.image(path, directory: directory)
            case (nil, let version?):
                let expected = "an image version like \"1.0.0\" or \"1.2.3+4\""
                guard let parsed = MCUbootVersion(parsing: try version.string(expected)) else { throw version.fail(expected) }
                image = try Self.declared(parsed, at: version)
            case (_?, _?):
                throw try fields.required("version", "").problem("give image or version, not both")
            case (nil, nil):
                throw value.problem("missing the running image: \"image\" (an imgtool image file) or \"version\"")
            }
            let kib = try fields.integer("slot_size_kib", in: 4...16_384, "a slot size from 4 to 16384 KiB", default: 384)
            guard image.bytes.count <= kib * 1024 else {
                throw try fields.required(fields.has("image") ? "image" : "version", "")
                    .problem("\(image.bytes.count) octets, more than the \(kib) KiB slot")
            }
            let timing = MCUbootSlots.Timing(
                erase: .milliseconds(try fields.number("erase_ms", in: 0...60_000, "a time from 0 to 60000 ms", default: 500)),
                writePerKiB: .milliseconds(try fields.number("write_ms_per_kib", in: 0...10_000, "a time from 0 to 10000 ms", default: 2)),
                swap: .milliseconds(try fields.number("swap_ms", in: 0...600_000, "a time from 0 to 600000 ms", default: 2000)))
            return AccessoryUpdates(running: image, slotSize: kib * 1024, timing: timing)
        }
    }

    /// The imgtool image at `path` (relative to `directory`), its header, TLVs and hash checked.
    static func image(_ value: InputValue, directory: String) throws(InputError) -> MCUbootImage {
        let text = try value.string("the path of an imgtool image")
        let path = text.hasPrefix("/") ? text : directory + "/" + text
        guard let data = FileManager.default.contents(atPath: path) else { throw value.problem("cannot read \(path)") }
        do { return try MCUbootImage(Array(data)) } catch { throw value.problem("\(path) is not an MCUboot image: \(error)") }
    }

    /// The image a profile that declares only a version runs: 8 KiB of the octets 0 to 255 in turn, made as imgtool
    /// makes an unsigned image.
    static func declared(_ version: MCUbootVersion, at value: InputValue) throws(InputError) -> MCUbootImage {
        do { return try MCUbootImage.make(version: version, body: (0..<8192).map { UInt8(truncatingIfNeeded: $0) }) } catch {
            throw value.problem("cannot make an image for \(version.mcumgrString): \(error)")
        }
    }
}
