import MCUbootImage
import MCUmgr

/// A simulated accessory's firmware update, as its rig's `dfu` block declares it: the version of its factory
/// image, its slot size and how long MCUboot's flash operations take. It serves MCUmgr SMP (`MCUmgrServer`) over
/// `MCUbootSlots` that keep their contents across power cycles, as flash does.
package struct SimulatedDFU: Sendable, Hashable {
    /// The factory image's version (the running image at the first boot).
    package var version: MCUbootVersion
    package var slotSizeKiB: Int
    package var eraseMilliseconds: Double
    package var writeMillisecondsPerKiB: Double
    package var swapMilliseconds: Double
    /// The path of the PEM key its MCUboot checks signatures with, as the rig wrote it (relative to the rig file).
    package var signingKeyFile: String?
    /// That key, once read (`readKeys(relativeTo:at:)`, when the rig is loaded); nil: MCUboot checks hashes only.
    package var signingKey: MCUbootPublicKey?
    /// The path of the PEM private key a test bench signs its updates with (`signedWith`), as the rig wrote it.
    package var signedWithFile: String?
    /// That key, once read with the others.
    package var signedWith: MCUbootSigningKey?

    package init(version: MCUbootVersion, slotSizeKiB: Int = 384, eraseMilliseconds: Double = 500, writeMillisecondsPerKiB: Double = 2,
                 swapMilliseconds: Double = 2000, signingKeyFile: String? = nil, signingKey: MCUbootPublicKey? = nil,
                signedWithFile: String? = nil, signedWith: MCUbootSigningKey? = nil) {
        self.version = version
        self.slotSizeKiB = slotSizeKiB
        self.eraseMilliseconds = eraseMilliseconds
        self.writeMillisecondsPerKiB = writeMillisecondsPerKiB
        self.swapMilliseconds = swapMilliseconds
        self.signingKeyFile = signingKeyFile
        self.signingKey = signingKey
        self.signedWithFile = signedWithFile
        self.signedWith = signedWith
    }

    var timing: MCUbootSlots.Timing {
        MCUbootSlots.Timing(erase: .milliseconds(eraseMilliseconds), writePerKiB: .milliseconds(writeMillisecondsPerKiB),
                            swap: .milliseconds(swapMilliseconds))
    }

    /// The factory image: 16 KiB of a pattern drawn from the version, made as imgtool makes an unsigned image.
    func factoryImage() throws(MCUbootImageError) -> MCUbootImage {
        let seed = Int(version.major) << 8 | Int(version.minor)
        return try MCUbootImage.make(version: version, body: (0..<16_384).map { UInt8(truncatingIfNeeded: $0 * 7 + seed) })
    }
}
