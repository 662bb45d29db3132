import HCIPackets
// Dispatch of received PDUs and the read-side requests.

extension ATTServer {
    /// A request's failure: the code and the handle to name in the Error Response.
    struct Failure: Error {
        let code: ATTErrorCode
        let handle: UInt16
    }

    /// Handles one PDU from the client: the response (if any), when to send it, and what happened.
    public mutating func reply(to bytes: [UInt8]) -> Reply {
        guard let first = bytes.first else { return Reply(response: nil) }
        let opcode = ATTOpcode(first)
        // Vol 3 Part F §3.2.9: no PDU is longer than the ATT_MTU. A request that is would be echoed or answered
        // past it (a Prepare Write Response echoes its value): Invalid PDU; a longer command is ignored.
        guard bytes.count <= mtu else {
            guard opcode.isRequest else { return Reply(response: nil) }
            return errorReply(opcode, Failure(code: .invalidPDU, handle: 0))
        }
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU(decoding: bytes)
        } catch {
            // Vol 3 Part F §3.4.1.1: a malformed request gets Invalid PDU; a command gets nothing.
            guard opcode.isRequest else { return Reply(response: nil) }
            return errorReply(opcode, Failure(code: .invalidPDU, handle: 0))
        }

        var delay = responseDelay
        if pdu.isRequest || pdu.isCommand, let interception = interceptor?(pdu) {
            switch interception {
            case .drop:
                return Reply(response: nil, events: [.dropped(pdu)])
            case .replace(let response):
                return Reply(response: response?.encoded())
            case .replaceBytes(let bytes):
                return Reply(response: bytes)
            case .delay(let extra):
                delay = extra
            }
        }

        var events: [Event] = []
        let result: Result<ATTPDU?, Failure>
        switch pdu {
        case .exchangeMTURequest(let clientMTU):
            let response = ATTPDU.exchangeMTUResponse(serverRxMTU: UInt16(maximumMTU))
            // §3.4.2.2: the new MTU applies after the response is sent.
            mtu = min(maximumMTU, max(Self.defaultMTU, Int(clientMTU)))
            events.append(.mtuExchanged(mtu))
            return Reply(response: response.encoded(), delay: delay, events: events)
        case .findInformationRequest(let start, let end):
            result = findInformation(start, end)
        case .findByTypeValueRequest(let start, let end, let type, let value):
            result = findByTypeValue(start, end, type, value)
        case .readByTypeRequest(let start, let end, let type):
            result = readByType(start, end, type)
        case .readRequest(let handle):
            result = readValue(handle).map { .readResponse(value: Array($0.prefix(mtu - 1))) }
        case .readBlobRequest(let handle, let offset):
            result = readBlob(handle, Int(offset))
        case .readMultipleRequest(let handles):
            result = readMultiple(handles)
        case .readMultipleVariableRequest(let handles):
            result = readMultipleVariable(handles)
        case .readByGroupTypeRequest(let start, let end, let type):
            result = readByGroupType(start, end, type)
        case .writeRequest(let handle, let value):
            result = write(handle, value, events: &events).map { .writeResponse }
        case .writeCommand(let handle, let value):
            _ = write(handle, value, events: &events)
            return Reply(response: nil, events: events)
        case .signedWriteCommand:
            // No CSRK is ever distributed to this server, so no signature can verify (§3.4.5.4): ignore it.
            return Reply(response: nil)
        case .prepareWriteRequest(let handle, let offset, let value):
            result = prepareWrite(handle, Int(offset), value)
        case .executeWriteRequest(let flag):
            result = executeWrite(flag, events: &events)
        case .handleValueConfirmation:
            if isAwaitingConfirmation {
                isAwaitingConfirmation = false
                events.append(.confirmationReceived)
            }
            return Reply(response: nil, events: events)
        case .unknown(let unknown, _):
            guard !unknown.isCommand else { return Reply(response: nil) }
            return errorReply(unknown, Failure(code: .requestNotSupported, handle: 0))
        default:
            // Responses, notifications and indications are for a client, not for us.
            return Reply(response: nil)
        }
        switch result {
        case .success(let response):
            return Reply(response: response?.encoded(), delay: delay, events: events)
        case .failure(let failure):
            var reply = errorReply(opcode, failure)
            reply.delay = delay
            reply.events = events
            return reply
        }
    }

    func errorReply(_ request: ATTOpcode, _ failure: Failure) -> Reply {
        Reply(response: ATTPDU.errorResponse(request: request, handle: failure.handle, error: failure.code).encoded())
    }

    // MARK: Access checks

    /// Why reading `attribute` is refused on this link, or nil when it is allowed.
    func readRefusal(_ attribute: GATTAttribute) -> ATTErrorCode? {
        guard attribute.permissions.isReadable else { return .readNotPermitted }
        return securityRefusal(attribute.permissions, authenticated: .readAuthenticated, encrypted: .readEncrypted,
                               authorized: .readAuthorized, secured: .readSecured)
    }

    /// Why writing `attribute` is refused on this link, or nil when it is allowed.
    func writeRefusal(_ attribute: GATTAttribute) -> ATTErrorCode? {
        guard attribute.permissions.isWritable else { return .writeNotPermitted }
        return securityRefusal(attribute.permissions, authenticated: .writeAuthenticated, encrypted: .writeEncrypted,
                               authorized: .writeAuthorized, secured: .writeSecured)
    }

    /// The security this link lacks for an access (a read or a write) whose permission bits are
    /// `authenticated`, `encrypted` and `authorized`, any of `secured` also asking for a full-size key.
    private func securityRefusal(
        _ permissions: GATTPermissions, authenticated: GATTPermissions, encrypted: GATTPermissions,
        authorized: GATTPermissions, secured: GATTPermissions
    ) -> ATTErrorCode? {
        if permissions.contains(authenticated), !security.contains(.authenticated) { return .insufficientAuthentication }
        if permissions.contains(encrypted), !security.contains(.encrypted) { return .insufficientEncryption }
        if permissions.contains(authorized), !security.contains(.authorized) { return .insufficientAuthorization }
        if permissions.contains(.fullKeySize), !security.contains(.fullKeySize), !permissions.isDisjoint(with: secured) {
            return .encryptionKeySizeTooShort
        }
        return nil
    }

    /// The whole value of `attribute` as this client may read it (CCCDs per connection).
    func readAllowed(_ attribute: GATTAttribute) -> Result<[UInt8], ATTErrorCode> {
        if let refusal = readRefusal(attribute) { return .failure(refusal) }
        if case .clientConfiguration = attribute.source {
            return .success((clientConfigurations[attribute.handle] ?? []).bytes)
        }
        do { return .success(try database.read(attribute)) } catch { return .failure(error) }
    }

    func readValue(_ handle: UInt16) -> Result<[UInt8], Failure> {
        guard let attribute = database.attribute(handle) else {
            return .failure(Failure(code: .invalidHandle, handle: handle))
        }
        return readAllowed(attribute).mapError { Failure(code: $0, handle: handle) }
    }

    /// §3.4.3.1, §3.4.4.1, §3.4.4.9: Starting Handle 0 or greater than Ending Handle → Invalid Handle.
    func checkRange(_ start: UInt16, _ end: UInt16) -> Failure? {
        start == 0 || start > end ? Failure(code: .invalidHandle, handle: start) : nil
    }

    // MARK: Requests

    /// §3.4.3.1–2: handle/type pairs of one UUID width, as many as fit in ATT_MTU – 2.
    func findInformation(_ start: UInt16, _ end: UInt16) -> Result<ATTPDU?, Failure> {
        if let failure = checkRange(start, end) { return .failure(failure) }
        var list: [ATTPDU.Information] = []
        var sixteen = true
        for attribute in database.attributes(from: start, through: end) {
            let short = attribute.type.uint16Value
            if list.isEmpty { sixteen = short != nil }
            guard sixteen == (short != nil) else { break }
            let entrySize = sixteen ? 4 : 18
            guard 2 + (list.count + 1) * entrySize <= mtu else { break }
            list.append(ATTPDU.Information(handle: attribute.handle,
                                           type: short.map { BluetoothUUID($0) } ?? attribute.type))
        }
        guard !list.isEmpty else { return .failure(Failure(code: .attributeNotFound, handle: start)) }
        return .success(.findInformationResponse(list))
    }

    /// §3.4.3.3–4: attributes of `type` whose readable value equals `value`, with
    /// group ends, as many as fit in ATT_MTU – 1. Service UUIDs compare as UUIDs,
    /// so a 128-bit form finds a service declared with its 16-bit form.
    func findByTypeValue(_ start: UInt16, _ end: UInt16, _ type: UInt16, _ value: [UInt8]) -> Result<ATTPDU?, Failure> {
        if let failure = checkRange(start, end) { return .failure(failure) }
        let wanted = BluetoothUUID(type)
        let wantedUUID = BluetoothUUID(littleEndian: value)
        var list: [ATTPDU.HandlesInformation] = []
        for attribute in database.attributes(from: start, through: end) where attribute.type == wanted {
            guard case .success(let current) = readAllowed(attribute) else { continue }
            var matches = current == value
            if !matches, case .service = attribute.role, let wantedUUID {
                matches = BluetoothUUID(littleEndian: current) == wantedUUID
            }
            guard matches else { continue }
            guard 1 + (list.count + 1) * 4 <= mtu else { break }
            list.append(ATTPDU.HandlesInformation(foundHandle: attribute.handle, groupEndHandle: attribute.groupEnd))
        }
        guard !list.isEmpty else { return .failure(Failure(code: .attributeNotFound, handle: start)) }
        return .success(.findByTypeValueResponse(list))
    }

    /// §3.4.4.1–2: values of attributes of `type`, each cut to min(ATT_MTU – 4, 253)
    /// octets, all of the first one's length, as many as fit in ATT_MTU – 2. A first
    /// match that cannot be read answers with its error and handle; a later one ends the list.
    func readByType(_ start: UInt16, _ end: UInt16, _ type: BluetoothUUID) -> Result<ATTPDU?, Failure> {
        if let failure = checkRange(start, end) { return .failure(failure) }
        return readValues(start, end, type, limit: min(mtu - 4, 253), handles: 2) {
            ATTPDU.HandleValue(handle: $0.handle, value: $1)
        }.map { .readByTypeResponse($0) }
    }

    /// The entries of a Read By Type or Read By Group Type Response: for each attribute of `type`
    /// from `start` through `end`, its value cut to `limit` octets after `handles` octets of handles,
    /// all of the first value's length, as many as fit in ATT_MTU – 2. A first match that cannot be
    /// read answers with its error and handle; a later one ends the list; none is Attribute Not Found.
    private func readValues<Entry>(
        _ start: UInt16, _ end: UInt16, _ type: BluetoothUUID, limit: Int, handles: Int,
        _ entry: (GATTAttribute, [UInt8]) -> Entry
    ) -> Result<[Entry], Failure> {
        var list: [Entry] = []
        var valueLength: Int?
        for attribute in database.attributes(from: start, through: end) where attribute.type == type {
            switch readAllowed(attribute) {
            case .failure(let code):
                if list.isEmpty { return .failure(Failure(code: code, handle: attribute.handle)) }
                return .success(list)
            case .success(let full):
                let value = Array(full.prefix(limit))
                if let valueLength, valueLength != value.count { return .success(list) }
                guard 2 + (list.count + 1) * (handles + value.count) <= mtu else { return .success(list) }
                valueLength = value.count
                list.append(entry(attribute, value))
            }
        }
        guard !list.isEmpty else { return .failure(Failure(code: .attributeNotFound, handle: start)) }
        return .success(list)
    }

    /// §3.4.4.5–6: the value from `offset`, at most ATT_MTU – 1 octets; an offset
    /// past the end is Invalid Offset (an offset equal to the length reads nothing).
    func readBlob(_ handle: UInt16, _ offset: Int) -> Result<ATTPDU?, Failure> {
        readValue(handle).flatMap { value in
            guard offset <= value.count else { return .failure(Failure(code: .invalidOffset, handle: handle)) }
            return .success(.readBlobResponse(value: Array(value[offset...].prefix(mtu - 1))))
        }
    }

    /// §3.4.4.7–8: the values concatenated, cut to ATT_MTU – 1; the first handle that
    /// cannot be read answers with its error.
    func readMultiple(_ handles: [UInt16]) -> Result<ATTPDU?, Failure> {
        var values: [UInt8] = []
        for handle in handles {
            switch readValue(handle) {
            case .failure(let failure): return .failure(failure)
            case .success(let value): values += value
            }
        }
        return .success(.readMultipleResponse(values: Array(values.prefix(mtu - 1))))
    }

    /// §3.4.4.11–12: each value with its length; the list is cut to ATT_MTU – 1 octets.
    func readMultipleVariable(_ handles: [UInt16]) -> Result<ATTPDU?, Failure> {
        var tuples: [[UInt8]] = []
        for handle in handles {
            switch readValue(handle) {
            case .failure(let failure): return .failure(failure)
            case .success(let value): tuples.append(value)
            }
        }
        var bytes: [UInt8] = [ATTOpcode.readMultipleVariableResponse.rawValue]
        for value in tuples {
            // A tuple whose Value Length would not fit whole ends the list: the cut may shorten a value, but
            // a lone octet of a length says nothing.
            guard bytes.count + 2 <= mtu else { break }
            bytes.append(UInt8(value.count & 0xFF))
            bytes.append(UInt8(value.count >> 8))
            bytes += value
        }
        // Encoded here rather than through ATTPDU, so the Length fields keep the full lengths.
        return .success(.unknown(opcode: .readMultipleVariableResponse, parameters: Array(bytes.prefix(mtu).dropFirst())))
    }

    /// §3.4.4.9–10: service groups of `type` (0x2800 or 0x2801, else Unsupported
    /// Group Type), values cut to min(ATT_MTU – 6, 251), all of the first one's
    /// length, as many as fit in ATT_MTU – 2.
    func readByGroupType(_ start: UInt16, _ end: UInt16, _ type: BluetoothUUID) -> Result<ATTPDU?, Failure> {
        if let failure = checkRange(start, end) { return .failure(failure) }
        guard type == .primaryService || type == .secondaryService else {
            return .failure(Failure(code: .unsupportedGroupType, handle: start))
        }
        return readValues(start, end, type, limit: min(mtu - 6, 251), handles: 4) {
            ATTPDU.GroupData(handle: $0.handle, endGroupHandle: $0.groupEnd, value: $1)
        }.map { .readByGroupTypeResponse($0) }
    }
}
