@testable import HCIPackets
@testable import GATT
import Testing

/// The client against the server, connected in memory (`ATTLoopback`) on a virtual clock: timeouts and
/// response delays are asserted exactly, at the instants of the test's clock they are due.
@Suite("GATT client")
struct GATTClientTests {
    // MARK: Discovery

    @Test("discoverAll of a 176-attribute database equals the database, at MTU 517 and at 23",
          arguments: [517, 23])
    func discoverLarge(mtu: Int) async throws {
        let database = try GATTFixtures.large()
        #expect(database.attributeCount >= 100)
        try await ATTLoopback.run(database, clientMTU: mtu) { loopback, client async throws in
            let tree = try await client.discoverAll()
            #expect(tree == database.serviceTree)
            #expect(tree.databaseHash == database.hash)
            #expect(tree.services.contains { !$0.isPrimary })
            #expect(tree.services.count == 26)
            #expect(await client.mtu == mtu)
            #expect(await loopback.maximumOutstanding == 1)
        }
    }

    @Test("discoverAll with values: the printable tree shows names, handles, properties and values")
    func discoverWithValues() async throws {
        let database = try GATTFixtures.standard()
        try await ATTLoopback.run(database) { _, client async throws in
            let tree = try await client.discoverAll(readValues: true)
            #expect(tree.withoutValues == database.serviceTree)
            let text = tree.description
            #expect(text.contains("Service 180F Battery [0x0017…0x001A]"))
            #expect(text.contains("  Characteristic 2A19 Battery Level [0x0019] read, notify = 5A"))
            #expect(text.contains("    Descriptor 2902 Client Characteristic Configuration [0x001A] = 0000"))
            #expect(text.contains("Characteristic 2A00 Device Name [0x0003] read = 48494C2053656E736F72 \"HIL Sensor\""))
            #expect(text.contains("Characteristic FF02 [0x002C] read = error 0x0F Insufficient Encryption"))
            #expect(text.contains("Service A0B40001-926D-4D61-98DF-8C5C62EE53B3 [0x0025…0x0034]"))
            #expect(text.contains("Database Hash \(HexFormat.bytes(database.hash))"))
            #expect(tree.characteristic(GATTFixtures.longValueUUID)?.value == .bytes(GATTFixtures.longValue))
        }
    }

    @Test("A server that refuses Exchange MTU is still discovered at ATT_MTU 23")
    func mtuRefused() async throws {
        let database = try GATTFixtures.standard()
        try await ATTLoopback.run(database) { loopback, client async throws in
            await loopback.configureServer { server in
                server.interceptor = { pdu in
                    guard case .exchangeMTURequest = pdu else { return nil }
                    return .replace(.errorResponse(request: .exchangeMTURequest, handle: 0, error: .requestNotSupported))
                }
            }
            #expect(try await client.discoverAll() == database.serviceTree)
            #expect(await client.mtu == 23)
        }
    }

    @Test("Primary service discovery by UUID, 16- and 128-bit; an absent UUID finds nothing")
    func discoverByUUID() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { _, client async throws in
            #expect(try await client.discoverPrimaryServices(uuid: .battery)
                    == [GATTServiceTree.Service(handle: 0x17, endHandle: 0x1A, uuid: .battery)])
            #expect(try await client.discoverPrimaryServices(uuid: GATTFixtures.customService).map(\.handle) == [0x25])
            #expect(try await client.discoverPrimaryServices(uuid: BluetoothUUID(UInt16(0x1812))).isEmpty)
        }
    }

    @Test("Included services: a 128-bit included service's UUID is read from its declaration")
    func includes() async throws {
        let database = try GATTFixtures.large()
        try await ATTLoopback.run(database) { loopback, client async throws in
            let services = try await client.discoverPrimaryServices()
            let vendor = try #require(services.first { $0.uuid == BluetoothUUID(UInt16(0xFE00)) })
            let includes = try await client.discoverIncludedServices(of: vendor)
            #expect(includes.map(\.uuid) == [BluetoothUUID("A0B4FFFF-926D-4D61-98DF-8C5C62EE53B3"), .battery])
            #expect(await loopback.sent.contains { if case .readRequest = $0 { true } else { false } })
        }
    }

    // MARK: Reads and writes

    @Test("Long read through Read Blob; a value of exactly ATT_MTU – 1 octets")
    func longRead() async throws {
        let database = try GATTFixtures.standard()
        try await ATTLoopback.run(database) { loopback, client async throws in
            #expect(try await client.read(handle: 0x27) == GATTFixtures.longValue)
            #expect(await loopback.sent.filter { if case .readBlobRequest = $0 { true } else { false } }.count == 4)
            database.setValue(Array(0..<22), at: 0x27)
            #expect(try await client.read(handle: 0x27) == Array(0..<22))
        }
    }

    @Test("Long write through Prepare/Execute Write; short writes use Write Request")
    func longWrite() async throws {
        let database = try GATTFixtures.standard()
        try await ATTLoopback.run(database) { loopback, client async throws in
            let value = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
            try await client.write(handle: 0x27, value: value)
            #expect(database.value(at: 0x27) == value)
            #expect(await loopback.sent.filter { if case .prepareWriteRequest = $0 { true } else { false } }.count == 17)
            #expect(await loopback.sent.last == .executeWriteRequest(.write))
            try await client.write(handle: 0x27, value: [1, 2])
            #expect(database.value(at: 0x27) == [1, 2])
            #expect(try await client.read(handle: 0x27) == [1, 2])
            await #expect(throws: ATTError.self) { try await client.write(handle: 0x27, value: Array(repeating: 0, count: 513)) }
        }
    }

    @Test("A long write the server refuses is cancelled and surfaces the error")
    func longWriteRefused() async throws {
        let database = try GATTFixtures.standard()
        try await ATTLoopback.run(database) { loopback, client async throws in
            do throws(ATTError) {
                try await client.write(handle: 0x2A, value: Array(repeating: 1, count: 30))
                Issue.record("a 30-octet write to a 4-octet characteristic succeeded")
            } catch {
                #expect(error.errorCode == .invalidAttributeValueLength)
                #expect(error.description == "Execute Write Request write failed at handle 0x002A: 0x0D Invalid Attribute Value Length")
            }
            do throws(ATTError) {
                try await client.write(handle: 0x03, value: Array(repeating: 1, count: 30))
            } catch {
                #expect(error == .errorResponse(request: .prepareWriteRequest(handle: 3, offset: 0, value: Array(repeating: 1, count: 18)),
                                                handle: 3, code: .writeNotPermitted))
            }
            #expect(await loopback.sent.last == .executeWriteRequest(.cancel))
        }
    }

    @Test("Write Without Response, Read Using Characteristic UUID, Read Multiple (Variable)")
    func otherReadsAndWrites() async throws {
        let database = try GATTFixtures.standard()
        try await ATTLoopback.run(database) { _, client async throws in
            try await client.writeWithoutResponse(handle: 0x27, value: [4, 5, 6])
            #expect(try await client.read(handle: 0x27) == [4, 5, 6])
            #expect(try await client.read(uuid: .batteryLevel) == [ATTPDU.HandleValue(handle: 0x19, value: [90])])
            #expect(try await client.read(uuid: .clientCharacteristicConfiguration).map(\.handle) == [0x09, 0x1A, 0x1E, 0x24, 0x34])
            #expect(try await client.read(uuid: BluetoothUUID(UInt16(0x2A6E))).isEmpty)
            #expect(try await client.readMultiple(handles: [0x19, 0x20]) == [90, 1])
            #expect(try await client.readMultipleVariable(handles: [0x19, 0x03]) == [[90], Array("HIL Sensor".utf8)])
            #expect(try await client.readDatabaseHash() == database.hash)
            await #expect(throws: ATTError.self) { try await client.writeWithoutResponse(handle: 0x27, value: Array(repeating: 0, count: 21)) }
            await #expect(throws: ATTError.self) { try await client.readMultiple(handles: [1]) }
        }
    }

    @Test("A database without a hash: readDatabaseHash is nil")
    func noHash() async throws {
        try await ATTLoopback.run(try GATTDatabase(services: [.battery(level: 3)])) { _, client async throws in
            #expect(try await client.readDatabaseHash() == nil)
            #expect(try await client.discoverAll().databaseHash == nil)
        }
    }

    @Test("An Error Response names the request, the handle and the code, and what security would let it through")
    func errorResponse() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { _, client async throws in
            do throws(ATTError) {
                _ = try await client.read(handle: 0x2C)
                Issue.record("read of an encrypted characteristic succeeded")
            } catch {
                #expect(error == .errorResponse(request: .readRequest(handle: 0x2C), handle: 0x2C, code: .insufficientEncryption))
                #expect(error.description == "Read Request handle=0x002C failed at handle 0x002C: 0x0F Insufficient Encryption: "
                        + "the attribute needs an encrypted link: pair, or encrypt with a stored bond")
                #expect(error.needsSecurity)
            }
        }
    }

    // MARK: Notifications and indications

    @Test("200 notifications arrive in order, on the characteristic's stream and the all-handles stream")
    func notificationsInOrder() async throws {
        let database = try GATTFixtures.standard()
        try await ATTLoopback.run(database) { loopback, client async throws in
            let tree = try await client.discoverAll()
            let battery = try #require(tree.characteristic(.batteryLevel))
            let stream = try await client.subscribe(to: battery)
            let all = await client.notifications()
            #expect(await loopback.isSubscribed(0x19))
            for index in 0..<200 { await loopback.notify(handle: 0x19, value: [UInt8(index % 256), UInt8(index / 256)]) }
            await loopback.notify(handle: 0x1D, value: [0, 70])
            let received = try await loopback.collect(stream, count: 200)
            #expect(received.map { Int($0.value[0]) + Int($0.value[1]) * 256 } == Array(0..<200))
            #expect(received.allSatisfy { $0.handle == 0x19 && !$0.isIndication })
            let everything = try await loopback.collect(all, count: 201)
            #expect(everything.last == GATTNotification(handle: 0x1D, value: [0, 70]))
            try await client.unsubscribe(from: battery)
            #expect(await !loopback.isSubscribed(0x19))
        }
    }

    @Test("Indications are delivered and confirmed automatically, one after another")
    func indications() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            let tree = try await client.discoverAll()
            let temperature = try #require(tree.characteristic(BluetoothUUID(UInt16(0x2A1C))))
            let stream = try await client.subscribe(to: temperature)
            #expect(await loopback.server.configuration(ofValue: 0x23) == .indication)
            for index in 0..<5 {
                #expect(await loopback.indicate(handle: 0x23, value: [0, UInt8(index)]))
                try await loopback.untilSent("confirmation of indication \(index)") { sent in
                    sent.filter { $0 == .handleValueConfirmation }.count == index + 1
                }
                #expect(await !loopback.isAwaitingConfirmation)
            }
            let received = try await loopback.collect(stream, count: 5)
            #expect(received.map { $0.value[1] } == [0, 1, 2, 3, 4])
            #expect(received.allSatisfy { $0.isIndication })
            #expect(await loopback.events.filter { $0 == .confirmationReceived }.count == 5)
        }
    }

    @Test("A Multiple Handle Value Notification is split per handle, in order")
    func multipleNotification() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            let stream = await client.notifications()
            await loopback.inject(attHex("23 1900 0100 5A 1D00 0200 0046"))
            #expect(try await loopback.collect(stream, count: 2) == [
                GATTNotification(handle: 0x19, value: [0x5A]), GATTNotification(handle: 0x1D, value: [0x00, 0x46]),
            ])
        }
    }

    // MARK: Transactions

    @Test("Concurrent requests are queued: one outstanding at a time, answered in order")
    func queued() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            await loopback.set(responseDelay: .milliseconds(2))
            let start = loopback.clock.now
            let values = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
                for index in 0..<20 {
                    group.addTask { (index, try await client.read(handle: index.isMultiple(of: 2) ? 0x19 : 0x20)) }
                }
                var result: [Int: [UInt8]] = [:]
                for try await (index, value) in group { result[index] = value }
                return result
            }
            #expect(values.count == 20)
            #expect(values.allSatisfy { $0.value == ($0.key.isMultiple(of: 2) ? [90] : [1]) })
            #expect(await loopback.maximumOutstanding == 1)
            // One after another: twenty responses, each 2 ms after its request.
            #expect(start.duration(to: loopback.clock.now) == .milliseconds(40))
        }
    }

    @Test("No response: the request times out after its deadline, the bearer closes, queued requests fail")
    func timeout() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard(), timeout: .milliseconds(200)) { loopback, client async throws in
            await loopback.set(dropResponses: true)
            let clock = loopback.clock
            let start = clock.now
            let first = loopback.start { try await client.read(handle: 0x19) }
            try await loopback.untilSent("the first request") { $0.count == 1 }
            let queuedRead = loopback.start { try await client.read(handle: 0x20) }
            await client.queued(atLeast: 1)
            switch await first.result {
            case .success:
                Issue.record("a request with no response succeeded")
            case .failure(let error):
                guard let error = error as? ATTError, case .timeout(let request, let after, _) = error else {
                    Issue.record("\(error)"); return
                }
                #expect(request == .readRequest(handle: 0x19))
                #expect(after == .milliseconds(200))
                #expect(error.description == "Read Request handle=0x0019: no Read Response within 200.0 ms; nothing came instead; "
                        + "the ATT bearer is closed (Vol 3 Part F §3.3.3)")
            }
            // The timeout fired at exactly its deadline on the test's clock.
            #expect(start.duration(to: clock.now) == .milliseconds(200))
            switch await queuedRead.result {
            case .success:
                Issue.record("a queued request succeeded after the bearer closed")
            case .failure(let error):
                guard case .bearerClosed(let request, let reason)? = error as? ATTError else { Issue.record("\(error)"); return }
                #expect(request == .readRequest(handle: 0x20))
                #expect(reason == "ATT transaction timeout: Read Request handle=0x0019 got no response within 200.0 ms")
            }
            // The queued request failed with the close, at the same instant.
            #expect(start.duration(to: clock.now) == .milliseconds(200))
            #expect(await client.isClosed)
            await loopback.set(dropResponses: false)
            let sentBefore = await loopback.sent.count
            await #expect(throws: ATTError.self) { _ = try await client.read(handle: 0x19) }
            #expect(await loopback.sent.count == sentBefore)
            // A late response after the close is ignored.
            await loopback.inject(attHex("0B 5A"))
        }
    }

    @Test("The default ATT transaction timeout fires at exactly 30 s of the test's clock (Vol 3 Part F §3.3.3)")
    func defaultTimeout() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            #expect(await client.transactionTimeout == .seconds(30))
            await loopback.set(dropResponses: true)
            let start = loopback.clock.now
            let read = loopback.start { try await client.read(handle: 0x19) }
            guard case .failure(let error as ATTError) = await read.result, case .timeout(_, let after, _) = error else {
                Issue.record("the read did not time out"); return
            }
            #expect(after == .seconds(30))
            #expect(start.duration(to: loopback.clock.now) == .seconds(30))
            #expect(await client.isClosed)
        }
    }

    @Test("A response 1 ns before the transaction deadline is in time, exactly as late as delayed; 1 ns after it is not")
    func responseAtTheDeadline() async throws {
        let timeout = Duration.milliseconds(200)
        try await ATTLoopback.run(try GATTFixtures.standard(), timeout: timeout) { loopback, client async throws in
            await loopback.set(responseDelay: timeout - .nanoseconds(1))
            let start = loopback.clock.now
            #expect(try await client.read(handle: 0x19) == [90])
            #expect(start.duration(to: loopback.clock.now) == timeout - .nanoseconds(1))
            #expect(await !client.isClosed)
        }
        try await ATTLoopback.run(try GATTFixtures.standard(), timeout: timeout) { loopback, client async throws in
            await loopback.set(responseDelay: timeout + .nanoseconds(1))
            let start = loopback.clock.now
            await #expect { _ = try await client.read(handle: 0x19) } throws: { error in
                guard let error = error as? ATTError, case .timeout(_, let after, _) = error else { return false }
                return after == timeout
            }
            #expect(start.duration(to: loopback.clock.now) == timeout)
            #expect(await client.isClosed)
        }
    }

    @Test("The timeout names what came instead of the response")
    func timeoutNamesWhatCame() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard(), timeout: .seconds(1)) { loopback, client async throws in
            await loopback.set(dropResponses: true)
            let start = loopback.clock.now
            let task = loopback.start { try await client.read(handle: 0x19) }
            try await loopback.untilSent("the request") { $0.count == 1 }
            // At the instant the request went out on the test's clock, however loaded the machine: a whole second
            // before its timeout.
            await loopback.notify(handle: 0x1D, value: [0, 61])
            let result = await task.result
            guard case .failure(let error as ATTError) = result, case .timeout(_, let after, let instead) = error else {
                Issue.record("\(result)"); return
            }
            #expect(instead == ["notification 0x001D = 003D"])
            #expect(after == .seconds(1))
            #expect(start.duration(to: loopback.clock.now) == .seconds(1))
        }
    }

    @Test("A disconnection mid-discovery fails the pending request at once with its reason")
    func disconnectMidDiscovery() async throws {
        try await ATTLoopback.run(try GATTFixtures.large()) { loopback, client async throws in
            await loopback.set(responsesLeft: 6)
            let clock = loopback.clock
            let discovery = loopback.start { try await client.discoverAll() }
            try await loopback.untilSent("the seventh request") { $0.count >= 7 }
            let queued = loopback.start { try await client.read(handle: 3) }
            await client.queued(atLeast: 1)
            #expect(await client.queue.count == 1)
            let start = clock.now
            await client.bearerClosed("0x13 Remote User Terminated Connection")
            let result = await discovery.result
            // At once: no time of the test's clock passes, where the 30 s transaction timeout would take 30 s.
            #expect(start.duration(to: clock.now) == .zero, "failed only after \(start.duration(to: clock.now))")
            guard case .failure(let error as ATTError) = result, case .disconnected(_, let reason, let after) = error else {
                Issue.record("\(result)"); return
            }
            #expect(reason == "0x13 Remote User Terminated Connection")
            // The seventh request went out at the test's start: no time had passed when the bearer closed.
            #expect(after == .zero)
            #expect(error.description.contains("the ATT bearer closed after"))
            #expect(error.description.hasSuffix(": 0x13 Remote User Terminated Connection"))
            guard case .failure(let queuedError as ATTError) = await queued.result else { Issue.record("queued read succeeded"); return }
            if case .disconnected = queuedError {} else if case .bearerClosed = queuedError {} else { Issue.record("\(queuedError)") }
            let stream = await client.notifications()
            #expect(try await loopback.collect(stream, count: 1, within: .milliseconds(200)).isEmpty)
        }
    }

    @Test("Notification streams end when the bearer closes")
    func streamsEnd() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            let stream = await client.notifications(handle: 0x19)
            await loopback.notify(handle: 0x19, value: [1])
            await client.bearerClosed("0x08 Connection Timeout")
            var received: [GATTNotification] = []
            for await notification in stream { received.append(notification) }
            #expect(received == [GATTNotification(handle: 0x19, value: [1])])
        }
    }

    @Test("A malformed response or one of the wrong type is an error; the bearer keeps working")
    func malformedResponses() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            await loopback.set(rewrite: { request, response in
                switch request {
                case .readByGroupTypeRequest: attHex("11 06 0100 05")               // a list cut mid-entry
                case .readRequest(0x19): attHex("13")                                 // a Write Response
                case .readRequest(0x20): attHex("0A 0300")                            // a request, not a response
                case .readByTypeRequest(_, _, .characteristic): attHex("09 07 0200 02 0300 002A 0100 02 0500 012A")  // backwards
                case .readByTypeRequest(_, _, .include): attHex("09 05 0200 0100 00")  // include of 3 octets
                case .findInformationRequest: attHex("01 0A 0000 0A")                 // error for another request
                default: response
                }
            })
            await #expect { _ = try await client.discoverPrimaryServices() } throws: { error in
                guard let error = error as? ATTError, case .malformedResponse(let request, let decoding) = error else { return false }
                return request == .readByGroupTypeRequest(startHandle: 1, endHandle: 0xFFFF, type: .primaryService)
                    && decoding.field == "Attribute Data List"
            }
            await #expect { _ = try await client.read(handle: 0x19) } throws: { error in
                guard let error = error as? ATTError, case .unexpectedResponse(_, let received) = error else { return false }
                return received == .writeResponse && error.description == "Read Request handle=0x0019: expected Read Response, got Write Response"
            }
            let service = GATTServiceTree.Service(handle: 1, endHandle: 5, uuid: .genericAccess)
            await #expect { _ = try await client.discoverCharacteristics(of: service) } throws: { error in
                guard let error = error as? ATTError, case .invalidResponse = error else { return false }
                return true
            }
            await #expect { _ = try await client.discoverIncludedServices(of: service) } throws: { error in
                guard let error = error as? ATTError, case .invalidResponse = error else { return false }
                return true
            }
            let characteristic = GATTServiceTree.Characteristic(handle: 0x18, valueHandle: 0x19, endHandle: 0x1A,
                                                                uuid: .batteryLevel, properties: [.read, .notify])
            await #expect { _ = try await client.discoverDescriptors(of: characteristic) } throws: { error in
                guard let error = error as? ATTError, case .unexpectedResponse = error else { return false }
                return true
            }
            await loopback.set(rewrite: nil)
            #expect(try await client.read(handle: 0x19) == [90])
            #expect(await !client.isClosed)
            // Garbage with nothing outstanding is noted, not fatal.
            await loopback.inject([0x09])
            await loopback.inject([])
            await loopback.inject(attHex("0B 01"))
            #expect(await client.unmatchedPDUs.count == 2)
            #expect(try await client.read(handle: 0x20) == [1])
        }
    }

    @Test("A server's Exchange MTU Request and unknown requests reaching the client are answered")
    func serverBoundPDUs() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard(), clientMTU: 185) { loopback, client async throws in
            await loopback.inject(attHex("02 F7 00"))
            try await loopback.untilSent("the MTU response") { $0.contains(.exchangeMTUResponse(serverRxMTU: 185)) }
            #expect(await client.mtu == 185)
            #expect(try await client.exchangeMTU() == 185)
            await loopback.inject(attHex("0A 0100"))
            try await loopback.untilSent("the error response") {
                $0.contains(.errorResponse(request: .readRequest, handle: 0, error: .requestNotSupported))
            }
        }
    }

    @Test("Cancelling a caller whose request is still queued fails only that request")
    func cancelQueued() async throws {
        try await ATTLoopback.run(try GATTFixtures.standard()) { loopback, client async throws in
            // The first request stays outstanding until the test answers it, so the second is still queued when it is
            // cancelled.
            await loopback.set(dropResponses: true)
            let first = loopback.start { try await client.read(handle: 0x19) }
            try await loopback.untilSent("the first request") { $0.count == 1 }
            let second = loopback.start { try await client.read(handle: 0x20) }
            await client.queued(atLeast: 1)
            #expect(await client.queue.count == 1)
            second.cancel()
            guard case .failure(let error as ATTError) = await second.result, case .cancelled = error else {
                Issue.record("the cancelled request did not fail with .cancelled"); return
            }
            await loopback.inject(attHex("0B 5A"))  // the server's Read Response to the first: value 90
            #expect(try await first.value == [90])
            #expect(await loopback.sent.count == 1)
        }
    }
}
