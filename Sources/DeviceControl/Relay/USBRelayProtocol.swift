/// The common `USBRelayN` HID relay boards (www.dcttech.com design, V-USB firmware on an ATtiny45):
/// USB ID 16c0:05df, product string `USBRelay1`, `USBRelay2`, `USBRelay4` or `USBRelay8`.
///
/// Everything is a HID feature report with report ID 0, eight bytes:
/// - SET_REPORT `FF nn`: relay nn on; `FD nn`: relay nn off; `FE`: all on; `FC`: all off.
/// - GET_REPORT: bytes 0–4 the board's own 5-character serial (the USB serial string is the same on
///   every board), byte 7 the relay states, bit n-1 for relay n.
package enum USBRelayProtocol {
    package static let id = USBID(vendor: 0x16C0, product: 0x05DF)
    static let featureReportValue: UInt16 = 0x0300   // report type Feature (3) << 8 | report ID 0

    /// Relays on a board, from its product string (`USBRelay4` → 4).
    package static func relayCount(product: String?) -> Int? {
        guard let product, product.hasPrefix("USBRelay"), let count = Int(product.dropFirst(8)), [1, 2, 4, 8].contains(count) else { return nil }
        return count
    }

    /// SET_REPORT(Feature, 0) to interface 0 with the command, padded to 8 bytes.
    package static func setRelay(_ relay: Int, _ power: Power, relayCount: Int) throws -> (setup: SetupPacket, data: [UInt8]) {
        guard (1...relayCount).contains(relay) else {
            throw PowerSwitchError(.invalidInput, "USBRelay\(relayCount) has relays 1…\(relayCount); there is no relay \(relay)")
        }
        let data: [UInt8] = [power == .on ? 0xFF : 0xFD, UInt8(relay), 0, 0, 0, 0, 0, 0]
        return (SetupPacket(requestType: 0x21, request: 0x09, value: featureReportValue, index: 0, length: 8), data)
    }

    /// GET_REPORT(Feature, 0) from interface 0.
    package static let getState = SetupPacket(requestType: 0xA1, request: 0x01, value: featureReportValue, index: 0, length: 8)

    /// The board's serial and relay bitmap from a GET_REPORT answer.
    package static func decodeState(_ answer: [UInt8]) throws -> (serial: String, relays: UInt8) {
        guard answer.count == 8 else {
            throw PowerSwitchError(.deviceFailure, "USB relay feature report has \(answer.count) bytes, expected 8: \(answer.map(byteHex).joined(separator: " "))")
        }
        let serialBytes = answer.prefix(5).prefix(while: { $0 != 0 })
        guard serialBytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw PowerSwitchError(.deviceFailure, "USB relay serial bytes are not printable ASCII: \(answer.prefix(5).map(byteHex).joined(separator: " "))")
        }
        return (String(decoding: serialBytes, as: UTF8.self), answer[7])
    }

    /// Relay `relay`'s state in a bitmap.
    package static func state(of relay: Int, in relays: UInt8) -> PowerState {
        guard (1...8).contains(relay) else { return .unknown(reason: "no relay \(relay)") }
        return relays & (1 << UInt8(relay - 1)) != 0 ? .on : .off
    }
}
