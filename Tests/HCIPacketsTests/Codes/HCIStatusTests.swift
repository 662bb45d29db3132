import Foundation
import Testing
@testable import HCIPackets

@Suite("HCIStatus")
struct HCIStatusTests {
    @Test("every assigned code 0x00…0x47 except the reserved three is named")
    func assignedCodes() {
        let codes = HCIStatus.allAssigned.map(\.rawValue)
        let expected = (UInt8(0x00)...UInt8(0x47)).filter { ![0x2B, 0x31, 0x33].contains($0) }
        #expect(codes == expected)
    }

    @Test("names are non-empty and unique, and no assigned code says unknown")
    func namesUnique() {
        let names = HCIStatus.allAssigned.map(\.name)
        #expect(names.allSatisfy { !$0.isEmpty })
        #expect(Set(names).count == names.count)
        #expect(!names.contains("Unknown status code"))
        #expect(!names.contains("Reserved for future use"))
    }

    @Test("description is 0x, two uppercase hex digits, a space, then the name", arguments: 0...255)
    func descriptionFormat(code: Int) {
        let status = HCIStatus(rawValue: UInt8(code))
        let text = status.description
        let hexDigits = Set("0123456789ABCDEF")
        let chars = Array(text)
        #expect(chars.count > 5)
        #expect(text.hasPrefix("0x"))
        #expect(hexDigits.contains(chars[2]) && hexDigits.contains(chars[3]))
        #expect(chars[4] == " ")
        #expect(String(chars[5...]) == status.name)
        #expect(UInt8(String(chars[2...3]), radix: 16) == UInt8(code))
    }

    @Test("spot checks of Core v5.4 Vol 1 Part F names", arguments: [
        (UInt8(0x00), "Success"),
        (0x01, "Unknown HCI Command"),
        (0x02, "Unknown Connection Identifier"),
        (0x05, "Authentication Failure"),
        (0x06, "PIN or Key Missing"),
        (0x08, "Connection Timeout"),
        (0x0A, "Synchronous Connection Limit To A Device Exceeded"),
        (0x0B, "Connection Already Exists"),
        (0x0C, "Command Disallowed"),
        (0x0F, "Connection Rejected due to Unacceptable BD_ADDR"),
        (0x12, "Invalid HCI Command Parameters"),
        (0x13, "Remote User Terminated Connection"),
        (0x15, "Remote Device Terminated Connection due to Power Off"),
        (0x16, "Connection Terminated By Local Host"),
        (0x1A, "Unsupported Remote Feature"),
        (0x1F, "Unspecified Error"),
        (0x22, "LMP Response Timeout / LL Response Timeout"),
        (0x23, "LMP Error Transaction Collision / LL Procedure Collision"),
        (0x28, "Instant Passed"),
        (0x38, "Host Busy - Pairing"),
        (0x3B, "Unacceptable Connection Parameters"),
        (0x3C, "Advertising Timeout"),
        (0x3D, "Connection Terminated due to MIC Failure"),
        (0x3E, "Connection Failed to be Established / Synchronization Timeout"),
        (0x40, "Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging"),
        (0x42, "Unknown Advertising Identifier"),
        (0x43, "Limit Reached"),
        (0x44, "Operation Cancelled by Host"),
        (0x45, "Packet Too Long"),
    ])
    func specNames(code: UInt8, name: String) {
        #expect(HCIStatus(rawValue: code).name == name)
    }

    @Test("constants carry the right numbers")
    func constants() {
        #expect(HCIStatus.success.rawValue == 0x00)
        #expect(HCIStatus.unknownHCICommand.rawValue == 0x01)
        #expect(HCIStatus.unknownConnectionIdentifier.rawValue == 0x02)
        #expect(HCIStatus.hardwareFailure.rawValue == 0x03)
        #expect(HCIStatus.connectionTimeout.rawValue == 0x08)
        #expect(HCIStatus.connectionAlreadyExists.rawValue == 0x0B)
        #expect(HCIStatus.commandDisallowed.rawValue == 0x0C)
        #expect(HCIStatus.invalidHCICommandParameters.rawValue == 0x12)
        #expect(HCIStatus.remoteUserTerminatedConnection.rawValue == 0x13)
        #expect(HCIStatus.remoteDeviceTerminatedConnectionDueToPowerOff.rawValue == 0x15)
        #expect(HCIStatus.connectionTerminatedByLocalHost.rawValue == 0x16)
        #expect(HCIStatus.unsupportedRemoteFeature.rawValue == 0x1A)
        #expect(HCIStatus.unspecifiedError.rawValue == 0x1F)
        #expect(HCIStatus.lmpResponseTimeout == HCIStatus.llResponseTimeout)
        #expect(HCIStatus.lmpResponseTimeout.rawValue == 0x22)
        #expect(HCIStatus.connectionFailedToBeEstablished.rawValue == 0x3E)
        #expect(HCIStatus.unknownAdvertisingIdentifier.rawValue == 0x42)
        #expect(HCIStatus.limitReached.rawValue == 0x43)
        #expect(HCIStatus.operationCancelledByHost.rawValue == 0x44)
        #expect(HCIStatus.packetTooLong.rawValue == 0x45)
    }

    @Test("unknown and reserved codes are kept and described")
    func unknownCodes() {
        let unknown = HCIStatus(rawValue: 0xA0)
        #expect(unknown.rawValue == 0xA0)
        #expect(unknown.description == "0xA0 Unknown status code")
        #expect(!unknown.isAssigned)
        #expect(HCIStatus(rawValue: 0x2B).name == "Reserved for future use")
        #expect(!HCIStatus(rawValue: 0x31).isAssigned)
        #expect(HCIStatus(0x08) == .connectionTimeout)
        #expect(HCIStatus.connectionTimeout.description == "0x08 Connection Timeout")
    }

    @Test("isSuccess only for 0x00")
    func success() {
        #expect(HCIStatus.success.isSuccess)
        #expect(!HCIStatus.unknownHCICommand.isSuccess)
        #expect((1...255).allSatisfy { !HCIStatus(rawValue: UInt8($0)).isSuccess })
    }

    @Test("Codable as the bare number")
    func codable() throws {
        let data = try JSONEncoder().encode([HCIStatus.connectionTimeout, HCIStatus(rawValue: 0xEE)])
        #expect(String(decoding: data, as: UTF8.self) == "[8,238]")
        let back = try JSONDecoder().decode([HCIStatus].self, from: data)
        #expect(back == [.connectionTimeout, HCIStatus(rawValue: 0xEE)])
    }
}
