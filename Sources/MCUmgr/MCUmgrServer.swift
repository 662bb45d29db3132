import CBOR
import GATT
import Roles

/// The peripheral's side of MCUmgr SMP over GATT, as a Zephyr device with MCUboot plays it: serves the SMP
/// characteristic, reassembles each central's requests from its writes, answers OS management (echo, reset) and
/// image management (state, upload, erase) from `MCUbootSlots`, and notifies each response in pieces of
/// ATT_MTU − 3 octets. A simulated accessory runs it.
package struct MCUmgrServer: Sendable {
    package let device: LEDevice
    package let slots: MCUbootSlots
    /// The SMP characteristic's value handle.
    package let valueHandle: UInt16

    /// Finds the SMP service in the database `device` serves (add `MCUmgrService.definition()` to it first).
    package init(device: LEDevice, slots: MCUbootSlots) async throws(MCUmgrError) {
        guard let handle = device.database?.valueHandle(of: MCUmgrService.characteristic, in: MCUmgrService.service) else {
            throw .notFound("the device serves no MCUmgr SMP service \(MCUmgrService.service)")
        }
        self.device = device
        self.slots = slots
        self.valueHandle = handle
    }

    /// The firmware's side for every central, until cancelled. After answering a reset it calls `reset` (which
    /// ends the links, runs `slots.boot()` and advertises again, as the device's reset would).
    package func run(reset: @escaping @Sendable () async -> Void) async {
        let writes = await device.attributeWrites()
        var reassemblers: [UInt16: MCUmgrReassembler] = [:]
        for await write in writes where write.handle == valueHandle && !write.isClientConfiguration {
            var reassembler = reassemblers[write.connection] ?? MCUmgrReassembler()
            let messages = reassembler.append(write.value)
            reassemblers[write.connection] = reassembler
            guard let link = await device.connections[write.connection] else { continue }
            for bytes in messages {
                // A request we cannot read has no sequence number to answer: it is dropped, as Zephyr drops it.
                guard let request = try? MCUmgrMessage(decoding: bytes) else { continue }
                let (body, resets) = await answer(request)
                let response = MCUmgrMessage(request.header.operation.response, version: request.header.version, group: request.header.group,
                                             command: request.header.command, sequence: request.header.sequence, body: body)
                let size = await link.gatt.mtu - 3
                for fragment in MCUmgrService.fragments(response.encoded, size: size) {
                    guard (try? await link.notify(valueHandle: valueHandle, value: fragment)) == true else { break }
                }
                if resets {
                    reassemblers = [:]
                    await reset()
                }
            }
        }
    }

    /// The response body to `request`, and whether the device resets after sending it.
    func answer(_ request: MCUmgrMessage) async -> (CBORValue, resets: Bool) {
        let header = request.header
        let result: Result<CBORValue, MCUmgrGroupError>
        switch (header.group, header.command, header.operation) {
        case (.os, MCUmgrCommand.echo, .write):
            guard let text = request.body["d"]?.text else { return (Self.returnCode(.invalid), false) }
            return (.map(["r": .text(text)]), false)
        case (.os, MCUmgrCommand.reset, .write):
            return (.map([]), true)
        case (.image, MCUmgrCommand.imageState, .read):
            result = .success(.map(["images": .array(await slots.states.map(\.cbor))]))
        case (.image, MCUmgrCommand.imageState, .write):
            result = await slots.setState(request.body)
        case (.image, MCUmgrCommand.upload, .write):
            result = await slots.upload(request.body)
        case (.image, MCUmgrCommand.erase, .write):
            result = await slots.erase(request.body)
        default:
            return (Self.returnCode(.notSupported), false)
        }
        switch result {
        case .success(let body): return (body, false)
        case .failure(let error):
            // Version 2 answers a group's own error as `err`; version 1 has only the shared return codes.
            if header.version == .v2 { return (.map(["err": .map(["group": .int(Int(error.group.rawValue)), "rc": .int(error.rc)])]), false) }
            return (Self.returnCode(.unknown), false)
        }
    }

    static func returnCode(_ code: MCUmgrReturnCode) -> CBORValue { .map(["rc": .int(code.rawValue)]) }
}
