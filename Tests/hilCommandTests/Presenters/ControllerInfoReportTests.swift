@testable import BenchOperations
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

    @Test func aRealtekControllerSaysWhichFirmwareItRuns() throws {
        var info = try Self.btvirtLikeInfo()
        info.manufacturer = CompanyIdentifier(rawValue: 93)
        info.hciSubversion = 0x09A9
        info.lmpSubversion = 0x8A6B
        let stage = ControllerFirmwareState.downloaded(chip: "rtl8761bu", file: "rtl_bt/rtl8761bu_fw.bin", config: "rtl_bt/rtl8761bu_config.bin",
                                                       romVersion: 1, fragments: 111, octets: 27814, version: 0x09A9_8A6B)
        let report = ControllerInfoReport(moniker: "usb:0bda:8771", info: info, leSupported: true, firmware: stage)
        #expect(report.text().contains("Firmware              patched firmware rtl_bt/rtl8761bu_fw.bin + rtl_bt/rtl8761bu_config.bin loaded"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(JSONOutput.text(report).utf8)) as? [String: Any])
        let firmware = try #require(object["firmware"] as? [String: Any])
        #expect(firmware["state"] as? String == "patched" && firmware["file"] as? String == "rtl_bt/rtl8761bu_fw.bin")
        #expect(firmware["version"] as? String == "0x09A98A6B" && firmware["loadedByThisOpen"] as? Bool == true)
        // A controller that needs no firmware says nothing of it.
        #expect(ControllerInfoReport(moniker: "unix:/tmp/x", info: try Self.btvirtLikeInfo(), leSupported: true).firmware == nil)
    }

    @Test func aCloneSaysWhichAddressReplacesItsSharedOne() throws {
        var info = try Self.btvirtLikeInfo()
        info.address = try #require(BDAddress("00:1A:7D:DA:71:13"))
        let quirks = ControllerQuirks(usbID: "0a12:0001", btusb: [.init(flag: "BTUSB_CSR", applied: true, effect: BTUSBQuirk.csr.effect)],
                                      clone: "HCI revision 0x0810 differs from LMP subversion 0x1012, which a CSR firmware build keeps equal",
                                      publicAddress: "00:1A:7D:DA:71:13", publicAddressProblem: "the address CSR8510 A10 clones (0a12:0001) share",
                                      staticRandomAddress: "C3:11:22:33:44:55", derivedFrom: "0a12:0001 location:1-1.4")
        let report = ControllerInfoReport(moniker: "usb:0a12:0001", info: info, leSupported: true, quirks: quirks)
        let text = report.text()
        #expect(text.contains("Address used          C3:11:22:33:44:55 (random static, in place of the public address)"))
        #expect(text.contains("Quirk                 btusb BTUSB_CSR for 0a12:0001: applied:"))
        #expect(text.contains("Quirk                 public address 00:1A:7D:DA:71:13 is the address CSR8510 A10 clones (0a12:0001) share"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(JSONOutput.text(report).utf8)) as? [String: Any])
        #expect(object["address"] as? String == "00:1A:7D:DA:71:13" && object["addressUsed"] as? String == "C3:11:22:33:44:55")
        let reported = try #require(object["quirks"] as? [String: Any])
        #expect(reported["staticRandomAddress"] as? String == "C3:11:22:33:44:55" && reported["derivedFrom"] as? String == "0a12:0001 location:1-1.4")
        // A dongle with nothing to say about it says nothing, and uses its public address.
        let plain = ControllerInfoReport(moniker: "usb:2fe3:000b", info: try Self.btvirtLikeInfo(), leSupported: true,
                                         quirks: ControllerQuirks(usbID: "2fe3:000b", btusb: [], publicAddress: "00:AA:01:00:00:42"))
        #expect(plain.quirks == nil && plain.addressUsed == "00:AA:01:00:00:42" && !plain.text().contains("Address used"))
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
