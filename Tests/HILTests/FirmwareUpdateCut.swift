import HILTesting
import Rigs
import Testing

/// Where the firmware-update campaign cuts an update: MCUboot's stages, in the order an update passes them.
enum FirmwareUpdateCut: String, CaseIterable, Sendable {
    case powerAt10Percent, powerAt50Percent, powerAt90Percent
    case duringErase
    case afterTestBeforeReset, duringSwap, beforeConfirm
    case adapterResetMidUpload, linkDropMidUpload

    /// The share of the upload the device has acknowledged when the cut comes, for the cuts in the upload.
    var uploadFraction: Double? {
        switch self {
        case .powerAt10Percent: 0.1
        case .powerAt50Percent, .adapterResetMidUpload, .linkDropMidUpload: 0.5
        case .powerAt90Percent: 0.9
        case .duringErase, .afterTestBeforeReset, .duringSwap, .beforeConfirm: nil
        }
    }

    /// Whether the cut is the accessory's power (its switch port).
    var cutsPower: Bool { self != .adapterResetMidUpload && self != .linkDropMidUpload }
}

/// The rig's accessories that declare a `dfu` block, for the firmware-update campaign; none on a rig without
/// them (the campaign is then skipped with that reason).
enum DFUAccessories {
    static let names = named { _ in true }
    /// Those whose MCUboot checks signatures (a simulated `dfu` block's signingKey, a `firmwareUpdate`'s signedWith),
    /// for the case of another key's image.
    static let signatureCheckingNames = named(\.checksSignatures)

    static func named(_ declares: (AccessoryFirmwareUpdate) -> Bool) -> [String] {
        guard let path = Bench.rigPath else { return ["(no rig: set HIL_RIG)"] }
        do {
            return try Rig.load(path: path).accessories.filter { $0.updates.map(declares) ?? false }.map(\.name)
        } catch {
            return ["(rig error: \(error))"]
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs only when an accessory of the rig updates over MCUmgr into an MCUboot that checks signatures.
    static var requiresSignatureCheckingDFUAccessory: ConditionTrait {
        .enabled("no accessory of the rig checks its firmware's signature (a simulated accessory's \"dfu\" block with a \"signingKey\", or a \"firmwareUpdate\" with \"signedWith\")") {
            guard let rig = try? await Bench.shared.lease() else { return true }
            return rig.accessories.contains { $0.updates?.checksSignatures == true }
        }
    }

    /// Runs only when an accessory of the rig updates its firmware over MCUmgr (its `firmwareUpdate`, or a simulated
    /// accessory's `dfu` block).
    static var requiresDFUAccessory: ConditionTrait {
        .enabled("no accessory of the rig updates its firmware over MCUmgr (an accessory's \"firmwareUpdate\", or a simulated accessory's \"dfu\" block)") {
            guard let rig = try? await Bench.shared.lease() else { return true }
            return rig.accessories.contains { $0.updates != nil }
        }
    }
}

/// A campaign case's finding about the accessory: what MCUboot promised and what the device did instead.
struct FirmwareUpdateFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
