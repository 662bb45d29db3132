import HCIPackets
// The paging shared by the discovery procedures: Core v5.4 Vol 3 Part G §4.4–§4.8.

extension GATTClient {
    /// The handles one entry of a paged response covers: a single attribute (Find
    /// Information, Read By Type) or a service's group, from its declaration through
    /// its End Group Handle (Read By Group Type, Find By Type Value).
    enum PageSpan {
        case attribute(UInt16)
        case group(UInt16, end: UInt16)
    }

    /// The paging every multi-response GATT procedure shares (Vol 3 Part G §4.4.1,
    /// §4.4.2, §4.5.1, §4.6.1, §4.7.1, §4.8.2): sends `request(start)` for the handles
    /// from `start` through `end`, takes each entry of the response in order, and asks
    /// again from the handle after the last one, until the server answers Attribute
    /// Not Found, an entry reaches handle 0xFFFF, or the range is used up.
    ///
    /// Each entry must lie in the range, after the previous one (its span from the
    /// current floor, its group not ending before it starts), else the procedure fails
    /// with `ATTError.invalidResponse` naming the request. So every page starts after the
    /// one before (response lists are never empty: decoding rejects an empty list) and
    /// the loop ends. `element` turns an accepted entry into the result (it may reject
    /// it, naming the request that brought it).
    func paged<Entry, Element>(
        from first: UInt16, through end: UInt16,
        request makeRequest: (_ start: UInt16) -> ATTPDU,
        entries: (ATTPDU) -> [Entry]?,
        span: (Entry) -> PageSpan,
        element: (Entry, _ request: ATTPDU) throws(ATTError) -> Element
    ) async throws(ATTError) -> [Element] {
        var result: [Element] = []
        var start = first
        while start <= end {
            let request = makeRequest(start)
            let response: ATTPDU
            do {
                response = try await transact(request)
            } catch {
                if error.errorCode == .attributeNotFound { return result }
                throw error
            }
            guard let list = entries(response) else { throw .unexpectedResponse(request: request, received: response) }
            var floor = start
            for entry in list {
                let last: UInt16
                do {
                    last = try Self.checked(span(entry), floor: floor, end: end, request: request)
                } catch {
                    // Handles going backwards, zero, or outside the range asked for: the server's fault.
                    if case .invalidResponse(_, let reason) = error { violated("\(response.opcode) in answer to \(request): \(reason)", lastResponseBytes) }
                    throw error
                }
                result.append(try element(entry, request))
                guard last < 0xFFFF else { return result }
                floor = last + 1
            }
            start = floor
        }
        return result
    }

    /// The last handle `span` covers, once it lies in `floor…end` in order.
    private static func checked(_ span: PageSpan, floor: UInt16, end: UInt16,
                                request: ATTPDU) throws(ATTError) -> UInt16 {
        switch span {
        case .attribute(let handle):
            guard handle >= floor, handle <= end else {
                throw .invalidResponse(request: request, reason: "handle \(hex(handle)) is outside "
                    + "\(hex(floor))…\(hex(end)) or out of order")
            }
            return handle
        case .group(let handle, let groupEnd):
            guard handle >= floor, groupEnd >= handle, groupEnd <= end else {
                throw .invalidResponse(request: request, reason: "service \(hex(handle))…"
                    + "\(hex(groupEnd)) is out of order (expected handles from \(hex(floor)))")
            }
            return groupEnd
        }
    }

    /// Read By Type over a range, repeated from after the last handle until
    /// Attribute Not Found or the end of the range (§4.5.1, §4.6.1, §4.8.2).
    func readByTypeAll(_ type: BluetoothUUID, from first: UInt16, through end: UInt16) async throws(ATTError) -> [ATTPDU.HandleValue] {
        try await paged(from: first, through: end,
                        request: { .readByTypeRequest(startHandle: $0, endHandle: end, type: type) },
                        entries: { pdu -> [ATTPDU.HandleValue]? in
                            if case .readByTypeResponse(let list) = pdu { return list }
                            return nil
                        },
                        span: { .attribute($0.handle) },
                        element: { entry, _ in entry })
    }
}
