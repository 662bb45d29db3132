import Foundation
@testable import HCIPackets
@testable import HostCore
@testable import hil
import Testing

@Suite struct ControllerInfoReportTests {
    static func btvirtLikeInfo() throws -> ControllerInfo {
        var commands = [UInt8](repeating: 0, count: 64)
        commands[0] = 0xFF
        commands[36] = 1 << 5 // LE Set Extended Advertising Parameters
        commands[37] = 0b0110_0000 // LE Set Extended Scan Parameters / Enable
        return ControllerInfo(
            address: try #require(BDAddress("00:AA:01:00:00:42")), hciVersion: BluetoothVersion(rawValue: 11), hciSubversion: 0x1234,
            lmpVersion: BluetoothVersion(rawValue: 11), lmpSubversion: 0x00AB, manufacturer: CompanyIdentifier(rawValue: 0x0059),
            lmpFeatures: 1 << 38, leFeatures: [.leEncryption, .leExtendedAdvertising], supportedCommands: commands,
            aclBufferLength: 251, aclBufferCount: 8, leACLBufferLength: 0, leACLBufferCount: 0)
    }

    @Test func textNamesVersionsVendorAndFeatures() throws {
        let report = ControllerInfoReport(moniker: "unix:/tmp/x", info: try Self.btvirtLikeInfo(), leSupported: true)
        let text = report.text()
        #expect(text.contains("HCI version           5.2 (revision 0x1234)"))
        #expect(text.contains("0x0059 Nordic Semiconductor"))
        #expect(text.contains("LE ACL buffers        shared with ACL"))
        #expect(text.contains("Extended advertising  supported"))
        #expect(text.contains("Extended scanning     supported"))
        #expect(text.contains("LE Encryption"))
        #expect(report.supportedCommandCount == 8 + 1 + 2)
    }

    @Test func jsonIsOneObjectWithTheSameFacts() throws {
        let report = ControllerInfoReport(moniker: "unix:/tmp/x", info: try Self.btvirtLikeInfo(), leSupported: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(JSONOutput.text(report).utf8)) as? [String: Any])
        #expect(object["address"] as? String == "00:AA:01:00:00:42")
        #expect(object["hciVersion"] as? String == "5.2")
        #expect((object["manufacturer"] as? [String: Any])?["id"] as? Int == 0x59)
        #expect(object["extendedAdvertising"] as? Bool == true)
        #expect((object["leFeatures"] as? [String])?.count == 2)
    }

    @Test func extendedAdvertisingNeedsTheFeatureAndTheCommand() throws {
        var info = try Self.btvirtLikeInfo()
        info.supportedCommands[36] = 0
        #expect(!info.supportsExtendedAdvertising)
        info = try Self.btvirtLikeInfo()
        info.leFeatures = [.leEncryption]
        #expect(!info.supportsExtendedScanning)
    }
}
