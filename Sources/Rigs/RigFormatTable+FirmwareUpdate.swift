import StrictJSON

extension RigFormatTable {
    /// `firmwareUpdate`: an accessory that updates over MCUmgr SMP into MCUboot's slots.
    package enum FirmwareUpdate {
        static let milliseconds = "a number of milliseconds from 0 to 600000"
        static let eraseMilliseconds = JSONField.number("eraseMilliseconds", 0...600_000, default: 500, expected: milliseconds, description: "How long its flash takes to erase the secondary slot, which an upload's first chunk does, in milliseconds (0 to 600000): the campaign cuts the power halfway through it, and gives the first chunk's answer this much longer. Default 500.")
        static let swapMilliseconds = JSONField.number("swapMilliseconds", 0...600_000, default: 2000, expected: milliseconds, description: "MCUboot's swap at boot (either way), in milliseconds (0 to 600000): the campaign cuts the power halfway through it and waits two of them for the accessory to come back. Default 2000.")
        static let bootMilliseconds = JSONField.number("bootMilliseconds", 0...600_000, default: 0, expected: milliseconds, description: "From power on, or from the reset 250 ms after an MCUmgr reset's answer, to the start of MCUboot's swap, in milliseconds (0 to 600000). Default 0.")
        static let signedWith = JSONField("signedWith", JSONRule.string(description: "For a test bench only: its MCUboot checks signatures, and this is the PEM private key (ECDSA P-256, as `imgtool keygen -t ecdsa-p256` writes it) the FirmwareUpdateCampaign signs the images it uploads with, relative to the rig file: a test key the accessory's MCUboot was built to accept, never a product's. Read when the rig is loaded. Default: none (the campaign's images are unsigned, and its case for another key's signature is skipped).", notes: [ReaderNote("The reader also reads the key file (relative to the rig file), which must hold a PEM ECDSA P-256 private key.", refusals: ["cannot read it", "not a PEM ECDSA P-256 private key"])]), expected: "the path of a PEM private key")
        package static let shape = JSONShape("firmwareUpdate", [eraseMilliseconds, swapMilliseconds, bootMilliseconds, signedWith])
        package static let definition = JSONDefinition(shape)
    }
}
