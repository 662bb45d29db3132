import Foundation
import Testing
@testable import HCIPackets

@Suite("LEFeatures")
struct LEFeaturesTests {
    /// A typical nRF52 / Zephyr controller's LE_Features: ff 49 01 00 00 00 00 00.
    static let typical: [UInt8] = [0xFF, 0x49, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00]

    @Test("a real 8-octet field decodes to the right bits and names")
    func realField() {
        let features = LEFeatures(littleEndian: Self.typical)
        #expect(features.rawValue == 0x0001_49FF)
        #expect(features.bits == [0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 14, 16])
        #expect(features.names == [
            "LE Encryption",
            "Connection Parameters Request procedure",
            "Extended Reject Indication",
            "Peripheral-initiated Features Exchange",
            "LE Ping",
            "LE Data Packet Length Extension",
            "LL Privacy",
            "Extended Scanning Filter Policies",
            "LE 2M PHY",
            "LE Coded PHY",
            "Channel Selection Algorithm #2",
            "Minimum Number of Used Channels procedure",
        ])
        #expect(features.contains(.le2MPHY))
        #expect(features.contains(.leCodedPHY))
        #expect(!features.contains(.leExtendedAdvertising))
        #expect(features.littleEndianBytes == Self.typical)
    }

    @Test("constants sit on their Vol 6 Part B §4.6 bits")
    func constantBits() {
        #expect(LEFeatures.leEncryption.rawValue == 1 << 0)
        #expect(LEFeatures.connectionParametersRequestProcedure.rawValue == 1 << 1)
        #expect(LEFeatures.peripheralInitiatedFeaturesExchange.rawValue == 1 << 3)
        #expect(LEFeatures.le2MPHY.rawValue == 1 << 8)
        #expect(LEFeatures.stableModulationIndexReceiver.rawValue == 1 << 10)
        #expect(LEFeatures.leCodedPHY.rawValue == 1 << 11)
        #expect(LEFeatures.leExtendedAdvertising.rawValue == 1 << 12)
        #expect(LEFeatures.lePeriodicAdvertising.rawValue == 1 << 13)
        #expect(LEFeatures.channelSelectionAlgorithm2.rawValue == 1 << 14)
        #expect(LEFeatures.lePowerClass1.rawValue == 1 << 15)
        #expect(LEFeatures.minimumNumberOfUsedChannelsProcedure.rawValue == 1 << 16)
        #expect(LEFeatures.connectedIsochronousStreamCentral.rawValue == 1 << 28)
        #expect(LEFeatures.connectedIsochronousStreamHostSupport.rawValue == 1 << 32)
        #expect(LEFeatures.channelClassification.rawValue == 1 << 39)
        #expect(LEFeatures.periodicAdvertisingWithResponsesScanner.rawValue == 1 << 44)
        #expect(LEFeatures.llExtendedFeatureSet.rawValue == 1 << 63)
    }

    @Test("bits 0…48 all have distinct names; unnamed bits read as bit N")
    func namesCoverage() {
        for bit in 0...48 {
            #expect(LEFeatures.name(ofBit: bit) != nil, "bit \(bit)")
        }
        let names = (0...48).compactMap(LEFeatures.name(ofBit:))
        #expect(Set(names).count == names.count)
        #expect(LEFeatures.name(ofBit: 55) == nil)
        let odd = LEFeatures(littleEndian: [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x80])
        #expect(odd.names == ["bit 55", "LL Extended Feature Set"])
    }

    @Test("short fields are zero-extended and long ones cut at 8 octets")
    func lengths() {
        #expect(LEFeatures(littleEndian: [0x01]) == .leEncryption)
        #expect(LEFeatures(littleEndian: []).isEmpty)
        let long = LEFeatures(littleEndian: [0, 0, 0, 0, 0, 0, 0, 0, 0xFF])
        #expect(long.isEmpty)
        #expect(LEFeatures(bit: 64).isEmpty)
        #expect(LEFeatures(bit: -1).isEmpty)
    }

    @Test("Codable round trip")
    func codable() throws {
        let features: LEFeatures = [.leEncryption, .le2MPHY, .channelSounding]
        let data = try JSONEncoder().encode(features)
        #expect(try JSONDecoder().decode(LEFeatures.self, from: data) == features)
    }
}
