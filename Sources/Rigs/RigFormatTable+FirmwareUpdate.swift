import StrictJSON

extension RigFormatTable {
    /// `firmwareUpdate`: an accessory that updates over MCUmgr SMP into MCUboot's slots.
    package enum FirmwareUpdate {
        static let milliseconds = "a number of milliseconds from 0 to 600000"
        static let eraseMilliseconds = JSONField.number("eraseMilliseconds", 0...600_000, default: 500, expected: milliseconds, description: "How long its flash takes to erase the secondary slot, which an upload's first chunk does, in milliseconds (0 to 600000): the campaign cuts the power halfway through it, and gives the first chunk's answer this much longer. Default 500.")
        static let swapMilliseconds = JSONField.number("swapMilliseconds", 0...600_000, default: 2000, expected: milliseconds, description: "MCUboot's swap at boot (either way), in milliseconds (0 to 600000): the campaign cuts the power halfway through it and waits two of them for the accessory to come back. Default 2000.")
        static let bootMilliseconds = JSONField.number("bootMilliseconds", 0...600_000, default: 0, expected: milliseconds, description: "From power on, or from the reset 250 ms after an MCUmgr reset's answer, to the start of MCUboot's swap, in milliseconds (0 to 600000). Default 0.")
        package static let shape = JSONShape("firmwareUpdate", [eraseMilliseconds, swapMilliseconds, bootMilliseconds])
        package static let definition = JSONDefinition(shape)
    }
}
