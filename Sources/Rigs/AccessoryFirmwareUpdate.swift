import MCUbootImage
import Simulation
import StrictJSON

/// How an accessory updates its firmware over MCUmgr SMP into MCUboot's slots (a rig accessory's `firmwareUpdate`),
/// as the FirmwareUpdateCampaign needs it to place its cuts: how long its flash erases the secondary slot (the
/// upload's first chunk), how long MCUboot's swap takes, and how long from power or reset to the swap's start. A
/// simulated accessory's `dfu` block says the same of the simulated firmware; a real one (or one behind a dongle)
/// declares it here.
public struct AccessoryFirmwareUpdate: Sendable, Hashable {
    /// The erase of the secondary slot and MCUboot's swap.
    public var erase, swap: Duration
    /// From power (or the reset) to the start of MCUboot's swap.
    public var boot: Duration
    /// Whether its MCUboot refuses an image whose signature does not verify with the key it is built with (a
    /// simulated `dfu` block's signingKey).
    public var checksSignatures: Bool
    /// The test bench's key the campaign signs its images with (`signedWith`, or a simulated `dfu` block's); nil:
    /// unsigned. The package's own: a user's suite has no use for the campaign's key.
    package var signedWith: MCUbootSigningKey?
    /// The path of that key as the rig wrote it (`firmwareUpdate.signedWith`), read with the rig's other files.
    public var signedWithFile: String?

    public init(erase: Duration, swap: Duration, boot: Duration, checksSignatures: Bool = false) {
        (self.erase, self.swap, self.boot, self.checksSignatures) = (erase, swap, boot, checksSignatures)
    }

    /// One the campaign signs its images for, with the test bench's key.
    package init(erase: Duration, swap: Duration, boot: Duration, checksSignatures: Bool, signedWith: MCUbootSigningKey?) {
        self.init(erase: erase, swap: swap, boot: boot, checksSignatures: checksSignatures)
        self.signedWith = signedWith
    }
}

extension AccessoryFirmwareUpdate {
    private typealias Table = RigFormatTable.FirmwareUpdate

    /// Reads `firmwareUpdate`: every key optional (erase 500 ms, swap 2000 ms, boot 0 ms), a misspelt one an error;
    /// with `signedWith` its MCUboot checks signatures (the key file is read with the rig's other files).
    init(reading value: InputValue) throws(InputError) {
        self = try value.object(Table.shape) { fields throws(InputError) -> Self in
            var update = Self(erase: .milliseconds(try fields.number(Table.eraseMilliseconds)), swap: .milliseconds(try fields.number(Table.swapMilliseconds)),
                              boot: .milliseconds(try fields.number(Table.bootMilliseconds)))
            update.signedWithFile = try fields.optionalString(Table.signedWith)
            update.checksSignatures = update.signedWithFile != nil
            return update
        }
    }
}

extension Rig.Accessory {
    /// How it updates over MCUmgr SMP: its `firmwareUpdate`, or else what its simulated `dfu` block declares (the
    /// erase, the swap, its boot delay, whether it checks signatures and the key to sign with); nil when it
    /// declares neither.
    public var updates: AccessoryFirmwareUpdate? {
        if let firmwareUpdate { return firmwareUpdate }
        guard let simulated, let dfu = simulated.dfu else { return nil }
        return AccessoryFirmwareUpdate(erase: .milliseconds(dfu.eraseMilliseconds), swap: .milliseconds(dfu.swapMilliseconds),
                                       boot: .milliseconds(simulated.bootDelayMilliseconds), checksSignatures: dfu.signingKey != nil,
                                       signedWith: dfu.signedWith)
    }
}
