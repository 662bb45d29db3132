// Write Request/Command and queued (prepared) writes.

extension ATTServer {
    /// §3.4.5.1/§3.4.5.3: writes the whole value. CCCDs take exactly 2 octets and
    /// are kept per connection; other values go to the database.
    mutating func write(_ handle: UInt16, _ value: [UInt8], events: inout [Event]) -> Result<Void, Failure> {
        guard let attribute = database.attribute(handle) else {
            return .failure(Failure(code: .invalidHandle, handle: handle))
        }
        if let refusal = writeRefusal(attribute) { return .failure(Failure(code: refusal, handle: handle)) }
        return store(attribute, value, events: &events)
    }

    /// Checks the length and stores the value, reporting the event.
    private mutating func store(_ attribute: GATTAttribute, _ value: [UInt8], events: inout [Event]) -> Result<Void, Failure> {
        let handle = attribute.handle
        if case .clientConfiguration(let valueHandle, let properties) = attribute.role {
            guard value.count == 2 else { return .failure(Failure(code: .invalidAttributeValueLength, handle: handle)) }
            let configuration = GATTClientConfiguration(rawValue: UInt16(value[0]) | UInt16(value[1]) << 8)
            // CSS Part B §1.2: enabling what the characteristic cannot do is improperly configured.
            var allowed: GATTClientConfiguration = []
            if properties.contains(.notify) { allowed.insert(.notification) }
            if properties.contains(.indicate) { allowed.insert(.indication) }
            guard allowed.isSuperset(of: configuration.intersection([.notification, .indication])) else {
                return .failure(Failure(code: .cccdImproperlyConfigured, handle: handle))
            }
            let old = clientConfigurations[handle] ?? []
            clientConfigurations[handle] = configuration
            if old != configuration {
                events.append(.subscriptionChanged(valueHandle: valueHandle, configuration: configuration))
            }
            return .success(())
        }
        guard value.count <= attribute.maximumLength else {
            return .failure(Failure(code: .invalidAttributeValueLength, handle: handle))
        }
        do {
            try database.write(attribute, value)
        } catch {
            return .failure(Failure(code: error, handle: handle))
        }
        events.append(.valueWritten(handle: handle, value: value))
        return .success(())
    }

    /// §3.4.6.1–2: checks the handle and permissions now, queues the part, and
    /// echoes the request. Offsets and lengths are checked at execution.
    mutating func prepareWrite(_ handle: UInt16, _ offset: Int, _ value: [UInt8]) -> Result<ATTPDU?, Failure> {
        guard let attribute = database.attribute(handle) else {
            return .failure(Failure(code: .invalidHandle, handle: handle))
        }
        if let refusal = writeRefusal(attribute) { return .failure(Failure(code: refusal, handle: handle)) }
        guard preparedWrites.count < maximumPreparedWrites else {
            return .failure(Failure(code: .prepareQueueFull, handle: handle))
        }
        preparedWrites.append((handle, offset, value))
        return .success(.prepareWriteResponse(handle: handle, offset: UInt16(offset), value: value))
    }

    /// §3.4.6.3–4: cancels the queue, or assembles every queued handle's value
    /// (each part replacing the value from its offset on) and writes them all; an
    /// offset past the value so far is Invalid Offset, a value longer than allowed is
    /// Invalid Attribute Value Length, and on any error nothing is written. The
    /// queue is empty afterwards either way.
    mutating func executeWrite(_ flag: ATTPDU.ExecuteWriteFlag, events: inout [Event]) -> Result<ATTPDU?, Failure> {
        let queue = preparedWrites
        preparedWrites = []
        guard flag == .write else { return .success(.executeWriteResponse) }

        var order: [UInt16] = []
        var assembled: [UInt16: [UInt8]] = [:]
        for part in queue {
            guard let attribute = database.attribute(part.handle) else {
                return .failure(Failure(code: .invalidHandle, handle: part.handle))
            }
            var value: [UInt8]
            if let current = assembled[part.handle] {
                value = current
            } else {
                order.append(part.handle)
                value = part.offset == 0 ? [] : currentValue(attribute)
            }
            guard part.offset <= value.count else { return .failure(Failure(code: .invalidOffset, handle: part.handle)) }
            value = Array(value.prefix(part.offset)) + part.value
            let limit = attribute.role.isClientConfiguration ? 2 : attribute.maximumLength
            guard value.count <= limit else {
                return .failure(Failure(code: .invalidAttributeValueLength, handle: part.handle))
            }
            assembled[part.handle] = value
        }
        for handle in order {
            guard let attribute = database.attribute(handle), let value = assembled[handle] else { continue }
            if case .failure(let failure) = store(attribute, value, events: &events) { return .failure(failure) }
        }
        return .success(.executeWriteResponse)
    }

    /// The value a queued write at a non-zero offset builds on.
    private func currentValue(_ attribute: GATTAttribute) -> [UInt8] {
        if case .clientConfiguration = attribute.source {
            return (clientConfigurations[attribute.handle] ?? []).bytes
        }
        return (try? database.read(attribute)) ?? []
    }
}

extension GATTAttribute.Role {
    var isClientConfiguration: Bool {
        if case .clientConfiguration = self { return true }
        return false
    }
}
