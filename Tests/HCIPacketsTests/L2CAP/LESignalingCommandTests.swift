import Testing
import TestSupport
@testable import HCIPackets

/// The LE signaling commands of LE credit-based channels byte for byte (Core v5.4 Vol 3 Part A §4): Code,
/// Identifier, Length (2 octets), then the fields in the spec's order, least significant octet first.
@Suite struct LESignalingCommandTests {
    static func roundTrip(_ command: LESignalingCommand, _ hex: String) throws {
        #expect(command.encoded == hexBytes(hex))
        #expect(try LESignalingCommand(decoding: hexBytes(hex)) == command)
    }

    /// §4.6: code 0x06, length 4, Destination CID then Source CID. The bytes agree with Bumble's:
    /// `.venv/bin/python -c "from bumble.l2cap import L2CAP_Disconnection_Request as R;
    /// print(bytes(R(identifier=0x21, destination_cid=0x41, source_cid=0x40)).hex())"` → 0621040041004000.
    @Test func disconnectionRequest() throws {
        try Self.roundTrip(.disconnectionRequest(identifier: 0x21, destinationCID: 0x0041, sourceCID: 0x0040), "06 21 04 00 41 00 40 00")
    }

    /// §4.7: code 0x07, the request's CIDs echoed (Bumble's `L2CAP_Disconnection_Response`, same
    /// arguments: 0721040041004000).
    @Test func disconnectionResponse() throws {
        try Self.roundTrip(.disconnectionResponse(identifier: 0x21, destinationCID: 0x0041, sourceCID: 0x0040), "07 21 04 00 41 00 40 00")
    }

    /// §4.24: code 0x16, length 4, CID then Credits (Bumble's `L2CAP_LE_Flow_Control_Credit(identifier=0x22,
    /// cid=0x40, credits=0x105)`: 1622040040000501).
    @Test func flowControlCreditIndication() throws {
        try Self.roundTrip(.flowControlCreditIndication(identifier: 0x22, cid: 0x0040, credits: 0x0105), "16 22 04 00 40 00 05 01")
    }

    /// §4.22–4.23: the request's SPSM, Source CID, MTU, MPS, Initial Credits; the response's Destination CID,
    /// MTU, MPS, Initial Credits and Result.
    @Test func creditBasedConnection() throws {
        try Self.roundTrip(.leCreditBasedConnectionRequest(identifier: 3, spsm: 0x0080, sourceCID: 0x0040, mtu: 512, mps: 247, credits: 8),
                           "14 03 0a 00 80 00 40 00 00 02 f7 00 08 00")
        try Self.roundTrip(.leCreditBasedConnectionResponse(identifier: 3, destinationCID: 0, mtu: 0, mps: 0, credits: 0, result: 0x0002),
                           "15 03 0a 00 00 00 00 00 00 00 00 00 02 00")
    }

    @Test func shortFieldsDoNotDecode() {
        #expect(throws: HCIDecodingError.self) { try LESignalingCommand(decoding: hexBytes("06 01 02 00 41 00")) }
        #expect(throws: HCIDecodingError.self) { try LESignalingCommand(decoding: hexBytes("16 01 03 00 40 00 05")) }
    }

    /// Table 4.20's results by name.
    @Test func resultsAreNamed() {
        #expect(LECreditBasedConnectionResult.spsmNotSupported.description == "0x0002 SPSM not supported")
        #expect(LECreditBasedConnectionResult.noResourcesAvailable.description == "0x0004 no resources available")
        #expect(LECreditBasedConnectionResult.insufficientAuthentication.description == "0x0005 insufficient authentication")
        #expect(LECreditBasedConnectionResult.insufficientAuthorization.description == "0x0006 insufficient authorization")
        #expect(LECreditBasedConnectionResult.encryptionKeySizeTooShort.description == "0x0007 encryption key size too short")
        #expect(LECreditBasedConnectionResult.insufficientEncryption.description == "0x0008 insufficient encryption")
        #expect(LECreditBasedConnectionResult.invalidSourceCID.description == "0x0009 invalid Source CID")
        #expect(LECreditBasedConnectionResult.sourceCIDAlreadyAllocated.description == "0x000A Source CID already allocated")
        #expect(LECreditBasedConnectionResult(rawValue: 0x0003).description == "0x0003 reserved result")
    }
}
