import GATT

/// A simulated accessory whose ATT server misbehaves on purpose (rig key `faults.maliciousATT`): each
/// case breaks one rule of Core v5.4 Vol 3 Part F in its answer to the request that GATT discovery sends,
/// with raw octets, so the central's host must name the violation rather than trap or hang.
package enum SimulatedMaliciousATT: String, CaseIterable, Sendable, Hashable {
    /// Read By Group Type answered with its response opcode alone (0x11, no Length, no data).
    case truncatedResponse = "truncated-response"
    /// Exchange MTU answered with 23; then a Read By Group Type Response of 38 octets (over the ATT_MTU).
    case oversizedResponse = "oversized-response"
    /// Read By Group Type answered with a Read Response (0x0B).
    case wrongOpcode = "wrong-opcode"
    /// Find Information answered for a handle after the range the client asked for.
    case wrongHandle = "wrong-handle"
    /// Exchange MTU answered with Server Rx MTU 0 (the minimum is 23).
    case mtuZero = "mtu-zero"
    /// Read By Group Type answered with a service whose group ends (0x0001) before it starts (0x0005).
    case backwardsHandles = "backwards-handles"
    /// Read By Group Type answered with a service at handle 0x0000 (no attribute has handle 0).
    case zeroHandle = "zero-handle"

    /// What the server does with `pdu` under this behaviour (nil: handled as usual).
    package func interception(of pdu: ATTPDU) -> ATTServer.Interception? {
        switch (self, pdu) {
        case (.mtuZero, .exchangeMTURequest):
            .replace(.exchangeMTUResponse(serverRxMTU: 0))
        case (.oversizedResponse, .exchangeMTURequest):
            .replace(.exchangeMTUResponse(serverRxMTU: UInt16(ATTServer.defaultMTU)))
        case (.truncatedResponse, .readByGroupTypeRequest):
            .replaceBytes([ATTOpcode.readByGroupTypeResponse.rawValue])
        case (.oversizedResponse, .readByGroupTypeRequest):
            // Opcode, Length 6 and six services: 38 octets, on an ATT_MTU of 23.
            .replaceBytes([ATTOpcode.readByGroupTypeResponse.rawValue, 0x06] + (1...6).flatMap { index -> [UInt8] in
                let handle = UInt8(index * 8)
                return [handle, 0x00, handle + 7, 0x00, 0x0F, 0x18]
            })
        case (.wrongOpcode, .readByGroupTypeRequest):
            .replace(.readResponse(value: [0x00]))
        case (.wrongHandle, .findInformationRequest(_, let end)) where end < 0xFFFF:
            .replaceBytes([ATTOpcode.findInformationResponse.rawValue, 0x01, UInt8((end + 1) & 0xFF), UInt8((end + 1) >> 8), 0x02, 0x29])
        case (.backwardsHandles, .readByGroupTypeRequest):
            .replaceBytes([ATTOpcode.readByGroupTypeResponse.rawValue, 0x06, 0x05, 0x00, 0x01, 0x00, 0x0F, 0x18])
        case (.zeroHandle, .readByGroupTypeRequest):
            .replaceBytes([ATTOpcode.readByGroupTypeResponse.rawValue, 0x06, 0x00, 0x00, 0x00, 0x00, 0x0F, 0x18])
        default:
            nil
        }
    }

    /// An `ATTServer.interceptor` with this behaviour.
    package var interceptor: ATTServer.Interceptor {
        { pdu in self.interception(of: pdu) }
    }
}
