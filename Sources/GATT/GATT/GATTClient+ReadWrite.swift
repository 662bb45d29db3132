import HCIPackets
// Reading and writing values: Core v5.4 Vol 3 Part G §4.8–§4.9.

extension GATTClient {
    /// The longest attribute value (Vol 3 Part F §3.2.9).
    public static let maximumValueLength = 512

    /// Read Characteristic Value / Read Long Characteristic Values (§4.8.1, §4.8.3):
    /// a Read Request, then Read Blob Requests while each part fills the PDU.
    /// Works for descriptors too (§4.12.1–2).
    public func read(handle: UInt16) async throws(ATTError) -> [UInt8] {
        let full = mtu - 1
        var value = try await request(.readRequest(handle: handle)) { pdu -> [UInt8]? in
            if case .readResponse(let value) = pdu { return value }
            return nil
        }
        guard value.count >= full else { return value }
        while true {
            let request = ATTPDU.readBlobRequest(handle: handle, offset: UInt16(value.count))
            let part: [UInt8]
            do {
                part = try await self.request(request) { pdu -> [UInt8]? in
                    if case .readBlobResponse(let value) = pdu { return value }
                    return nil
                }
            } catch {
                // The value was exactly one PDU long: the server may say so this way.
                if error.errorCode == .attributeNotLong || error.errorCode == .invalidOffset { return value }
                throw error
            }
            value += part
            guard value.count <= Self.maximumValueLength else {
                throw .invalidResponse(request: request, reason: "value longer than \(Self.maximumValueLength) octets")
            }
            if part.count < full { return value }
        }
    }

    /// Read Blob Request at `offset` (§4.8.3), one part only.
    public func readBlob(handle: UInt16, offset: UInt16) async throws(ATTError) -> [UInt8] {
        try await request(.readBlobRequest(handle: handle, offset: offset)) { pdu -> [UInt8]? in
            if case .readBlobResponse(let value) = pdu { return value }
            return nil
        }
    }

    /// Read Using Characteristic UUID (§4.8.2): every attribute of type `uuid` in
    /// the range with its value (each cut by the server to ATT_MTU – 4 octets);
    /// empty when none exists.
    public func read(uuid: BluetoothUUID, from start: UInt16 = 0x0001,
                     through end: UInt16 = 0xFFFF) async throws(ATTError) -> [ATTPDU.HandleValue] {
        guard start != 0, start <= end else {
            throw .invalidArgument("Read Using Characteristic UUID: range \(Self.hex(start))…\(Self.hex(end)) is empty")
        }
        return try await readByTypeAll(uuid, from: start, through: end)
    }

    /// Read Multiple Characteristic Values (§4.8.4): the values of two or more
    /// fixed-length attributes, concatenated (cut to ATT_MTU – 1 octets).
    public func readMultiple(handles: [UInt16]) async throws(ATTError) -> [UInt8] {
        guard handles.count >= 2 else { throw .invalidArgument("Read Multiple needs two or more handles, got \(handles.count)") }
        return try await request(.readMultipleRequest(handles: handles)) { pdu -> [UInt8]? in
            if case .readMultipleResponse(let values) = pdu { return values }
            return nil
        }
    }

    /// Read Multiple Variable Length Characteristic Values (§4.8.5): each value
    /// separately (the last may be cut at ATT_MTU – 1 octets of list).
    public func readMultipleVariable(handles: [UInt16]) async throws(ATTError) -> [[UInt8]] {
        guard handles.count >= 2 else {
            throw .invalidArgument("Read Multiple Variable needs two or more handles, got \(handles.count)")
        }
        return try await request(.readMultipleVariableRequest(handles: handles)) { pdu -> [[UInt8]]? in
            if case .readMultipleVariableResponse(let values) = pdu { return values }
            return nil
        }
    }

    /// Write Characteristic Value (§4.9.3), or Write Long Characteristic Values
    /// (§4.9.4) when the value does not fit one Write Request (ATT_MTU – 3 octets).
    public func write(handle: UInt16, value: [UInt8]) async throws(ATTError) {
        guard value.count <= Self.maximumValueLength else {
            throw .invalidArgument("a value of \(value.count) octets is longer than \(Self.maximumValueLength)")
        }
        if value.count <= mtu - 3 {
            _ = try await request(.writeRequest(handle: handle, value: value)) { pdu -> Bool? in
                pdu == .writeResponse ? true : nil
            }
        } else {
            try await writeLong(handle: handle, value: value)
        }
    }

    /// Write Without Response (§4.9.1): a Write Command of at most ATT_MTU – 3
    /// octets; returns once it was handed to the bearer (nothing confirms it).
    public func writeWithoutResponse(handle: UInt16, value: [UInt8]) async throws(ATTError) {
        guard value.count <= mtu - 3 else {
            throw .invalidArgument("Write Command carries at most \(mtu - 3) octets (ATT_MTU \(mtu)), got \(value.count)")
        }
        try await sendCommand(.writeCommand(handle: handle, value: value))
    }

    /// Write Long Characteristic Values / Reliable Writes (§4.9.4–5): Prepare
    /// Write Requests of ATT_MTU – 5 octets from `offset`, each echo checked, then
    /// Execute Write. A failure or a wrong echo cancels the queue (Execute Write
    /// with flags 0x00) before throwing.
    public func writeLong(handle: UInt16, value: [UInt8], offset: Int = 0) async throws(ATTError) {
        guard offset >= 0, offset + value.count <= Self.maximumValueLength else {
            throw .invalidArgument("offset \(offset) + \(value.count) octets exceeds \(Self.maximumValueLength)")
        }
        let chunk = mtu - 5
        var position = 0
        repeat {
            let part = Array(value[position..<min(value.count, position + chunk)])
            let request = ATTPDU.prepareWriteRequest(handle: handle, offset: UInt16(offset + position), value: part)
            do throws(ATTError) {
                let echo = try await self.request(request) { pdu -> ATTPDU? in
                    if case .prepareWriteResponse = pdu { return pdu }
                    return nil
                }
                guard echo == .prepareWriteResponse(handle: handle, offset: UInt16(offset + position), value: part) else {
                    throw .invalidResponse(request: request, reason: "the Prepare Write Response does not echo the request")
                }
            } catch {
                if closedReason == nil { _ = try? await transact(.executeWriteRequest(.cancel)) }
                throw error
            }
            position += part.count
        } while position < value.count
        _ = try await request(.executeWriteRequest(.write)) { pdu -> Bool? in
            pdu == .executeWriteResponse ? true : nil
        }
    }
}
