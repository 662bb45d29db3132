/// Yepkit's YKUSH family: USB hubs whose downstream ports are switched by a HID command byte.
package enum YKUSHModel: String, Sendable, Equatable, CaseIterable {
    /// YKUSH: 3 ports; 04d8:f2f7 (early boards 04d8:0042, 6-byte reports).
    case ykush = "YKUSH"
    /// YKUSH3: 3 ports (USB 3.1), 04d8:f11b.
    case ykush3 = "YKUSH3"
    /// YKUSH XS: 1 port, 04d8:f0cd.
    case ykushXS = "YKUSH XS"

    package static let legacyYKUSH = USBID(vendor: 0x04D8, product: 0x0042)

    package var ids: [USBID] {
        switch self {
        case .ykush: return [USBID(vendor: 0x04D8, product: 0xF2F7), Self.legacyYKUSH]
        case .ykush3: return [USBID(vendor: 0x04D8, product: 0xF11B)]
        case .ykushXS: return [USBID(vendor: 0x04D8, product: 0xF0CD)]
        }
    }

    package var portCount: Int { self == .ykushXS ? 1 : 3 }

    package init?(id: USBID) {
        guard let model = Self.allCases.first(where: { $0.ids.contains(id) }) else { return nil }
        self = model
    }

    package static var allIDs: Set<USBID> { Set(allCases.flatMap(\.ids)) }
}

/// YKUSH HID reports. The command byte: 0x0N turns port N off, 0x1N on, 0x2N asks its state
/// (0x0A/0x1A all ports); the YKUSH XS has one port, so 0x01/0x11/0x21. Reports are 64 bytes with
/// the command first (the early 04d8:0042 YKUSH: 6 bytes, the command repeated in the first two).
/// The board answers with a report whose second byte is the port state: high nibble set = on
/// (0x1N on, 0x0N off); the XS also puts 0x01 (success) in the first byte.
package enum YKUSHProtocol {
    /// The command byte for `power` (nil: ask the state) on `port`.
    package static func command(_ power: Power?, port: Int, model: YKUSHModel) throws -> UInt8 {
        guard (1...model.portCount).contains(port) else {
            throw PowerSwitchError(.invalidInput, "\(model.rawValue) has \(model.portCount == 1 ? "port 1 only" : "ports 1…\(model.portCount)"); there is no port \(port)")
        }
        let base: UInt8
        switch power {
        case .off?: base = 0x00
        case .on?: base = 0x10
        case nil: base = 0x20
        }
        return base | UInt8(port)
    }

    /// The output report carrying `command`.
    package static func report(command: UInt8, legacy: Bool) -> [UInt8] {
        var report = [UInt8](repeating: 0, count: legacy ? 6 : 64)
        report[0] = command
        if legacy { report[1] = command }
        return report
    }

    /// The state a status answer reports for `port`.
    package static func decodeStatus(_ answer: [UInt8], port: Int, model: YKUSHModel) throws -> PowerState {
        let hex = answer.prefix(8).map(byteHex).joined(separator: " ")
        guard answer.count >= 2 else {
            throw PowerSwitchError(.deviceFailure, "\(model.rawValue) status answer too short (\(answer.count) bytes): \(hex)")
        }
        if model == .ykushXS, answer[0] != 0x01 {
            throw PowerSwitchError(.deviceFailure, "\(model.rawValue) refused the status request (first byte 0x\(byteHex(answer[0])), expected 0x01): \(hex)")
        }
        let state = answer[1]
        let answeredPort = Int(state & 0x0F)
        guard answeredPort == port || answeredPort == 0 else {
            throw PowerSwitchError(.deviceFailure, "\(model.rawValue) answered for port \(answeredPort) when asked about port \(port): \(hex)")
        }
        guard state >> 4 <= 1 else {
            throw PowerSwitchError(.deviceFailure, "\(model.rawValue) status byte 0x\(byteHex(state)) is neither 0x0N (off) nor 0x1N (on): \(hex)")
        }
        return state >> 4 == 1 ? .on : .off
    }

    /// Checks an answer to an on/off command (only the XS acknowledges with 0x01).
    package static func checkAcknowledgement(_ answer: [UInt8], model: YKUSHModel) throws {
        if model == .ykushXS, answer.first != 0x01 {
            throw PowerSwitchError(.deviceFailure, "\(model.rawValue) did not acknowledge the command: \(answer.prefix(8).map(byteHex).joined(separator: " "))")
        }
    }
}
