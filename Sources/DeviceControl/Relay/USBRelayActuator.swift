import CLibUSB

/// Switches relays of a `USBRelayN` HID board (dcttech family), found by the serial in its feature report.
package struct USBRelayActuator: PowerActuator {
    package let vendor: String
    package let serial: String?
    package let relays: [Int]
    let context: USBContext
    let sysfs: SysfsRoot

    package static let supportedVendors = ["dcttech"]

    package init(vendor: String, serial: String?, relays: [Int], sysfs: SysfsRoot = SysfsRoot()) throws {
        guard Self.supportedVendors.contains(vendor) else {
            throw PowerSwitchError(.invalidInput, "relay vendor '\(vendor)' is not supported; supported: \(Self.supportedVendors.joined(separator: ", "))")
        }
        guard !relays.isEmpty else { throw PowerSwitchError(.invalidInput, "relay:\(vendor):\(serial ?? "") needs at least one relay (--port)") }
        self.vendor = vendor
        self.serial = serial
        self.relays = relays
        self.context = try USBContext.shared.get()
        self.sysfs = sysfs
    }

    package var name: String {
        "relay:\(vendor):\(serial ?? "") " + Self.outputs("relay", relays)
    }

    /// Finds the board, optionally switches, and returns its serial and relay bitmap afterwards.
    func transact(_ power: Power?) async throws -> (serial: String, relays: UInt8, count: Int) {
        let wanted = serial, relays = self.relays, sysfs = self.sysfs, name = self.name
        return try await context.run { context in
            let boards = try HIDTransport.boards(context, ids: [USBRelayProtocol.id], sysfs: sysfs)
                .filter { USBRelayProtocol.relayCount(product: $0.product) != nil }
            var seen: [String] = []
            for board in boards {
                let count = USBRelayProtocol.relayCount(product: board.product) ?? 1
                let what = "USB relay board at \(board.location)"
                let result: (String, UInt8)? = try HIDTransport.withInterface(board, what: what) { handle in
                    let state = try USBRelayProtocol.decodeState(try LibUSBCalls.control(handle, USBRelayProtocol.getState, what: "\(what): GET_REPORT"))
                    seen.append("\(state.serial) (\(board.product ?? "")) at \(board.location)")
                    if let wanted, state.serial != wanted { return nil }
                    if wanted == nil, boards.count != 1 { return nil }
                    guard let power else { return state }
                    for relay in relays {
                        let request = try USBRelayProtocol.setRelay(relay, power, relayCount: count)
                        _ = try LibUSBCalls.control(handle, request.setup, data: request.data, what: "\(what): SET_REPORT relay \(relay) \(power)")
                    }
                    return try USBRelayProtocol.decodeState(try LibUSBCalls.control(handle, USBRelayProtocol.getState, what: "\(what): GET_REPORT"))
                }
                if let result { return (result.0, result.1, count) }
            }
            if wanted == nil, boards.count > 1 {
                throw PowerSwitchError(.invalidInput, "\(name): \(boards.count) relay boards found, name one by serial: \(seen.joined(separator: ", "))")
            }
            throw PowerSwitchError(.notFound, "\(name): no USBRelay board\(wanted.map { " with serial \($0)" } ?? "") found (16c0:05df); found: \(seen.isEmpty ? "none" : seen.joined(separator: ", "))")
        }
    }

    package func apply(_ power: Power) async throws -> [String] {
        let after = try await transact(power)
        return ["relay board \(after.serial): \(relays.map(String.init).joined(separator: ",")) \(power); bitmap now 0x\(byteHex(after.relays))"]
    }

    package func status() async throws -> PowerStatus {
        let now = try await transact(nil)
        return PowerStatus.combining(relays.map {
            let state = USBRelayProtocol.state(of: $0, in: now.relays)
            return PowerStatus(state: state, detail: "relay \($0): \(state) (bitmap 0x\(byteHex(now.relays)))")
        })
    }
}
