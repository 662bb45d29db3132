import CLibUSB

/// Switches ports of a YKUSH, YKUSH3 or YKUSH XS board, found by its USB serial (or the only board).
package struct YKUSHActuator: PowerActuator {
    package let serial: String?
    package let ports: [Int]
    let context: USBContext
    let sysfs: SysfsRoot

    package init(serial: String?, ports: [Int], sysfs: SysfsRoot = SysfsRoot()) throws {
        guard !ports.isEmpty else { throw PowerSwitchError(.invalidInput, "ykush:\(serial ?? "") needs at least one port") }
        self.serial = serial
        self.ports = ports
        self.context = try USBContext.shared.get()
        self.sysfs = sysfs
    }

    package var name: String {
        "ykush:\(serial ?? "") " + Self.outputs("port", ports)
    }

    /// Sends one command to each port and returns the answers, on the libusb queue.
    func exchange(_ power: Power?) async throws -> [(port: Int, model: YKUSHModel, answer: [UInt8])] {
        let serial = self.serial, ports = self.ports, sysfs = self.sysfs, name = self.name
        return try await context.run { context in
            let boards = try HIDTransport.boards(context, ids: YKUSHModel.allIDs, sysfs: sysfs)
            let board = try Self.select(boards, serial: serial, name: name)
            guard let model = YKUSHModel(id: board.id) else { throw PowerSwitchError(.notFound, "\(name): \(board.id) is not a YKUSH") }
            let legacy = board.id == YKUSHModel.legacyYKUSH
            let interfaces = board.device.interfaceClasses
            let hid = interfaces.first { $0.classCode == 0x03 } ?? interfaces.first
            let inEndpoint = hid?.endpoints.first { $0.isIn && $0.isInterrupt }?.address
            let outEndpoint = hid?.endpoints.first { !$0.isIn && $0.isInterrupt }?.address
            guard let inEndpoint else { throw PowerSwitchError(.deviceFailure, "\(name): the board has no interrupt IN endpoint") }
            let what = "\(model.rawValue) \(board.serial ?? "") at \(board.location)"
            return try HIDTransport.withInterface(board, interface: Int32(hid?.number ?? 0), what: what) { handle in
                try ports.map { port in
                    let command = try YKUSHProtocol.command(power, port: port, model: model)
                    let report = YKUSHProtocol.report(command: command, legacy: legacy)
                    if let outEndpoint {
                        try HIDTransport.interruptOut(handle, endpoint: outEndpoint, report, what: what)
                    } else {
                        // SET_REPORT(Output, ID 0) to the HID interface.
                        let setup = SetupPacket(requestType: 0x21, request: 0x09, value: 0x0200, index: UInt16(hid?.number ?? 0), length: UInt16(report.count))
                        _ = try LibUSBCalls.control(handle, setup, data: report, what: "\(what): SET_REPORT")
                    }
                    let answer = try HIDTransport.interruptIn(handle, endpoint: inEndpoint, length: report.count, what: what)
                    return (port, model, answer)
                }
            }
        }
    }

    static func select(_ boards: [HIDTransport.Board], serial: String?, name: String) throws -> HIDTransport.Board {
        let listed = boards.map { "\(YKUSHModel(id: $0.id)?.rawValue ?? "?") \($0.serial ?? "(no serial)") at \($0.location)" }.joined(separator: ", ")
        if let serial {
            guard let board = boards.first(where: { $0.serial == serial }) else {
                throw PowerSwitchError(.notFound, "\(name): no YKUSH board with serial \(serial); found: \(listed.isEmpty ? "none" : listed)")
            }
            return board
        }
        guard boards.count == 1, let only = boards.first else {
            throw PowerSwitchError(boards.isEmpty ? .notFound : .invalidInput,
                                   boards.isEmpty ? "\(name): no YKUSH board found (looked for \(YKUSHModel.allIDs.sorted().map(\.description).joined(separator: ", ")))"
                                                  : "\(name): \(boards.count) YKUSH boards found, name one by serial: \(listed)")
        }
        return only
    }

    package func apply(_ power: Power) async throws -> [String] {
        let answers = try await exchange(power)
        for answer in answers { try YKUSHProtocol.checkAcknowledgement(answer.answer, model: answer.model) }
        return answers.map { "\($0.model.rawValue) port \($0.port) \(power) (answer \($0.answer.prefix(2).map(byteHex).joined(separator: " ")))" }
    }

    package func status() async throws -> PowerStatus {
        let answers = try await exchange(nil)
        return PowerStatus.combining(try answers.map {
            let state = try YKUSHProtocol.decodeStatus($0.answer, port: $0.port, model: $0.model)
            return PowerStatus(state: state, detail: "port \($0.port): \(state) (0x\(byteHex($0.answer[1])))")
        })
    }
}
