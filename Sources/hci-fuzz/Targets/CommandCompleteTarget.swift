// command-complete: the return parameters of every command the host sends.
import HCIPackets

/// The input is the parameters of a Command Complete event (credits, opcode, status, return
/// parameters). As the host does, it is decoded as an event, and a successful one's return parameters
/// go to the decoder of the command its opcode names (for an opcode no command has, the command the
/// opcode's low byte picks). A decoder may throw; it must never trap, and whatever it returns must
/// describe itself.
enum CommandCompleteTarget {
    static let target = FuzzTarget(name: "command-complete", summary: "Command Complete return parameters of every command the host sends", run: run)

    private static let decoders: [(opcode: HCIOpcode, decode: @Sendable ([UInt8]) throws(HCIDecodingError) -> String)] = [
        entry(LECreateConnectionCancel.self), entry(LEConnectionUpdate.self), entry(LEReadRemoteFeatures.self),
        entry(ReadRemoteVersionInformation.self), entry(LESetAdvertisingSetRandomAddress.self),
        entry(LESetExtendedAdvertisingParameters.self), entry(LESetExtendedAdvertisingData.self),
        entry(LESetExtendedScanResponseData.self), entry(LESetExtendedAdvertisingEnable.self),
        entry(LERemoveAdvertisingSet.self), entry(LEClearAdvertisingSets.self), entry(Reset.self), entry(SetEventMask.self),
        entry(LESetEventMask.self), entry(WriteLEHostSupport.self), entry(LEEncrypt.self), entry(LERand.self),
        entry(LEEnableEncryption.self), entry(LELongTermKeyRequestReply.self), entry(LELongTermKeyRequestNegativeReply.self),
        entry(LESetRandomAddress.self), entry(LESetAdvertisingParameters.self), entry(LESetAdvertisingData.self),
        entry(LESetScanResponseData.self), entry(LESetAdvertisingEnable.self), entry(LESetScanParameters.self),
        entry(LESetScanEnable.self), entry(LESetExtendedScanParameters.self), entry(LESetExtendedScanEnable.self),
        entry(ReadLocalVersionInformation.self), entry(ReadBDADDR.self), entry(ReadLocalSupportedCommands.self),
        entry(ReadLocalSupportedFeatures.self), entry(ReadBufferSize.self), entry(LEReadBufferSize.self),
        entry(LEReadBufferSizeV2.self), entry(LEReadLocalSupportedFeatures.self), entry(LEReadMaximumAdvertisingDataLength.self),
        entry(LEReadNumberOfSupportedAdvertisingSets.self), entry(LECreateConnection.self),
        entry(LEExtendedCreateConnection.self), entry(Disconnect.self),
    ]

    private static func entry<Command: HCICommand>(_ command: Command.Type) -> (opcode: HCIOpcode, decode: @Sendable ([UInt8]) throws(HCIDecodingError) -> String) {
        (Command.opcode, { (bytes: [UInt8]) throws(HCIDecodingError) -> String in
            var reader = HCIReturnParameters(bytes, opcode: Command.opcode)
            return String(describing: try Command.decodeResponse(&reader))
        })
    }

    static func run(_ input: [UInt8]) -> Int {
        let event: HCIEvent
        do {
            event = try HCIEvent(decoding: HCIEventPacket(code: HCIEvent.Code.commandComplete, parameters: input))
        } catch {
            return error.description.count
        }
        guard case .commandComplete(_, let opcode, let parameters) = event else {
            Harness.check(false, "Command Complete parameters decoded as \(event.summary)")
            return 0
        }
        guard let status = parameters.first, HCIStatus(rawValue: status) == .success else { return event.summary.count }
        let decoder = decoders.first { $0.opcode == opcode }
            ?? decoders[Int(opcode.rawValue & 0xFF) % decoders.count]
        do {
            return try decoder.decode(Array(parameters.dropFirst())).count
        } catch {
            return error.description.count
        }
    }
}
