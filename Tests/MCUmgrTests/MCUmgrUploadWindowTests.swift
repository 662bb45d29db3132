import CBOR
import MCUmgr
import Roles
import Synchronization
import Testing

/// The upload's window of requests in flight against a device scripted on the bench's accessory, on virtual time:
/// the deadlines each request has from when it went, an answer lost, answers reordered or for no request.
@Suite struct MCUmgrUploadWindowTests {
    /// What the scripted device does with its answer to the request it received `index`th (from 0).
    enum Delivery: Sendable {
        case now
        case drop
        /// Sent right after the answer to request `index`.
        case after(Int)
        /// Sent now, with this sequence number instead of the request's.
        case sequence(UInt8)
    }

    /// What the scripted device took and the client heard.
    final class Record: Sendable {
        let image = Mutex<[UInt8]>([])
        let requests = Mutex(0)
        let chunks = Mutex<[MCUmgrUploadReport.Chunk]>([])
    }

    /// A device on the bench's accessory that takes upload chunks as Zephyr's image manager does (a request at
    /// offset 0 starts the upload over; a chunk at the offset it holds advances it; one elsewhere is dropped and
    /// answered with the offset it holds) and answers as `deliver` says, noting in `record` what it took.
    static func device(_ bench: MCUmgrBench, record: Record,
                       deliver: @escaping @Sendable (Int) -> Delivery) async throws -> Task<Void, Never> {
        let accessory = bench.accessory
        let handle = try #require(accessory.database?.valueHandle(of: MCUmgrService.characteristic, in: MCUmgrService.service))
        let writes = await accessory.attributeWrites()
        return Task(executorPreference: accessory.host.loop) {
            var reassembler = MCUmgrReassembler()
            var held: [Int: [MCUmgrMessage]] = [:]
            for await write in writes where write.handle == handle && !write.isClientConfiguration {
                guard let link = await accessory.connections[write.connection] else { continue }
                for bytes in reassembler.append(write.value) {
                    guard let request = try? MCUmgrMessage(decoding: bytes), let offset = request.body["off"]?.int,
                          let data = request.body["data"]?.bytes else { continue }
                    let index = record.requests.withLock { count in defer { count += 1 }; return count }
                    let taken = record.image.withLock { image -> Int in
                        if offset == 0 { image = [] }
                        if offset == image.count { image += data }
                        return image.count
                    }
                    var answer = MCUmgrMessage(.writeResponse, group: .image, command: request.header.command, sequence: request.header.sequence,
                                               body: .map(["off": .int(taken)]))
                    var outgoing: [MCUmgrMessage] = []
                    switch deliver(index) {
                    case .now: outgoing = [answer]
                    case .drop: break
                    case .after(let earlier): held[earlier, default: []].append(answer)
                    case .sequence(let sequence):
                        answer.header.sequence = sequence
                        outgoing = [answer]
                    }
                    if !outgoing.isEmpty { outgoing += held.removeValue(forKey: index) ?? [] }
                    for message in outgoing { _ = try? await link.notify(valueHandle: handle, value: message.encoded) }
                }
            }
        }
    }

    static let image = (0..<4_000).map { UInt8(truncatingIfNeeded: $0 * 13 + 5) }

    /// Uploads `image` to a scripted device, window 4, chunks awaited 1 s; the chunks answered, and the error.
    static func upload(_ bench: MCUmgrBench, deliver: @escaping @Sendable (Int) -> Delivery)
        async throws -> (chunks: [MCUmgrUploadReport.Chunk], took: [UInt8], requests: Int, error: MCUmgrError?, ended: ContinuousClock.Instant) {
        let record = Record()
        let device = try await device(bench, record: record, deliver: deliver)
        defer { device.cancel() }
        let client = try await bench.connect()
        var failure: MCUmgrError?
        do throws(MCUmgrError) {
            _ = try await client.upload(image, window: 4, firstTimeout: .seconds(5), chunkTimeout: .seconds(1)) { chunk in
                record.chunks.withLock { $0.append(chunk) }
            }
        } catch {
            failure = error
        }
        let ended = bench.clock.now
        return (record.chunks.withLock { $0 }, record.image.withLock { $0 }, record.requests.withLock { $0 }, failure, ended)
    }

    @Test("Four requests go in flight after the first answer; each chunk starts where the one before it ends")
    func windowFills() async throws {
        try await MCUmgrBench.with(serving: false) { bench in
            let run = try await Self.upload(bench) { _ in .now }
            #expect(run.error == nil)
            #expect(run.took == Self.image, "the device holds the image, taken chunk by chunk at the offsets it held")
            let first = try #require(run.chunks.first)
            #expect(first.offset == 0 && first.sentEnd == first.length, "the request at offset 0 went alone")
            let second = try #require(run.chunks.dropFirst().first)
            #expect(second.sent == first.received, "the window refilled when the first answer came")
            // Four chunks in flight (the one at an offset under 256 carries an octet more than those after it).
            #expect(second.sentEnd > second.offset + 3 * second.length && second.sentEnd <= second.offset + 4 * second.length,
                    "four requests were in flight behind the first answer")
            for (previous, next) in zip(run.chunks, run.chunks.dropFirst()) { #expect(next.offset == previous.answered) }
            #expect(run.requests == run.chunks.count)
        }
    }

    @Test("Each request's answer is awaited from when it went: the oldest unanswered ends the upload at its own deadline")
    func deadlineFromSending() async throws {
        try await MCUmgrBench.with(serving: false) { bench in
            // The first request and the first of the window are answered; the rest never are.
            let run = try await Self.upload(bench) { index in index < 2 ? .now : .drop }
            let answered = run.chunks
            try #require(answered.count == 2)
            guard case .silent(let awaited, let timeout, let instead)? = run.error else {
                Issue.record("not a deadline: \(String(describing: run.error))")
                return
            }
            // Requests 1–4 went when the first answer came; request 2 (the oldest unanswered) is awaited 1 s from then,
            // not from the second answer, which came later.
            #expect(answered[1].received > answered[0].received)
            #expect(run.ended == answered[0].received + .seconds(1))
            #expect(awaited == "image upload response to offset \(answered[1].answered)" && timeout == .seconds(1))
            #expect(instead == "the link stayed up and the device said nothing")
            #expect(run.requests == 6, "the second answer let one more request go: 1 + 4 + 1")
        }
    }

    @Test("An answer lost in the middle of the window is passed over: the next answer says what the device holds")
    func lostAnswer() async throws {
        try await MCUmgrBench.with(serving: false) { bench in
            let run = try await Self.upload(bench) { index in index == 2 ? .drop : .now }
            #expect(run.error == nil)
            #expect(run.took == Self.image)
            #expect(run.chunks.count == run.requests - 1, "every request went once: none was sent again")
            let gaps = zip(run.chunks, run.chunks.dropFirst()).filter { $0.1.offset != $0.0.answered }
            #expect(gaps.count == 1 && gaps.first?.0.offset == run.chunks[1].offset, "only the third chunk, whose answer was lost, is missing")
        }
    }

    @Test("An answer that comes after the answer to a later request is a named protocol error")
    func reorderedAnswer() async throws {
        try await MCUmgrBench.with(serving: false) { bench in
            let run = try await Self.upload(bench) { index in index == 1 ? .after(2) : .now }
            guard case .outOfOrder(let sequence, let awaited)? = run.error else {
                Issue.record("not out of order: \(String(describing: run.error))")
                return
            }
            #expect(sequence == 1, "the request sent second carried sequence 1")
            #expect(awaited.hasPrefix("image upload response to offset "))
            #expect(run.error?.description.hasPrefix("the device broke MCUmgr SMP: a response to sequence 1 came out of order") == true)
        }
    }

    @Test("An answer with a sequence number no request in flight carries is a named protocol error")
    func unknownSequence() async throws {
        try await MCUmgrBench.with(serving: false) { bench in
            let run = try await Self.upload(bench) { index in index == 1 ? .sequence(200) : .now }
            guard case .unknownSequence(let sequence, let outstanding, _)? = run.error else {
                Issue.record("not an unknown sequence: \(String(describing: run.error))")
                return
            }
            #expect(sequence == 200 && outstanding == [1, 2, 3, 4])
        }
    }
}
