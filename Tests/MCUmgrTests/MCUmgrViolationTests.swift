import CBOR
import MCUmgr
import Roles
import Testing

/// A device that answers uploads against the protocol: the client ends the upload naming what it answered,
/// rather than going past the image or looping.
@Suite struct MCUmgrViolationTests {
    /// Answers every upload request on the bench's accessory with `answer(offset of the request)` as its offset.
    static func answering(_ bench: MCUmgrBench, _ answer: @escaping @Sendable (Int) -> Int) async throws -> Task<Void, Never> {
        let accessory = bench.accessory
        let handle = try #require(accessory.database?.valueHandle(of: MCUmgrService.characteristic, in: MCUmgrService.service))
        let writes = await accessory.attributeWrites()
        return Task(executorPreference: accessory.host.loop) {
            var reassembler = MCUmgrReassembler()
            for await write in writes where write.handle == handle && !write.isClientConfiguration {
                guard let link = await accessory.connections[write.connection] else { continue }
                for bytes in reassembler.append(write.value) {
                    guard let request = try? MCUmgrMessage(decoding: bytes), let offset = request.body["off"]?.int else { continue }
                    let response = MCUmgrMessage(.writeResponse, group: .image, command: request.header.command, sequence: request.header.sequence,
                                                 body: .map(["off": .int(answer(offset))]))
                    _ = try? await link.notify(valueHandle: handle, value: response.encoded)
                }
            }
        }
    }

    static func upload(_ bench: MCUmgrBench, _ answer: @escaping @Sendable (Int) -> Int) async throws -> MCUmgrError? {
        let responder = try await answering(bench, answer)
        defer { responder.cancel() }
        let client = try await bench.connect()
        do throws(MCUmgrError) {
            _ = try await client.upload(Array(repeating: 0x5A, count: 2_000))
            return nil
        } catch {
            return error
        }
    }

    @Test("An answer past the image's end is a violation naming the offset")
    func pastTheEnd() async throws {
        try await MCUmgrBench.with(serving: false) { bench in
            let error = try await Self.upload(bench) { _ in 5_000 }
            #expect(error?.description == "the device broke MCUmgr SMP: the device answered offset 5000 to the chunk at 0, past the image's 2000 octets")
        }
    }

    @Test("An answer that does not advance a later chunk is a violation, not a loop")
    func noProgress() async throws {
        try await MCUmgrBench.with(serving: false) { bench in
            // The first chunk is taken (its end answered), then every later one is answered with its own offset.
            let error = try await Self.upload(bench) { offset in offset == 0 ? 100 : offset }
            guard case .violation(let what)? = error else {
                Issue.record("not a violation: \(String(describing: error))")
                return
            }
            #expect(what.hasPrefix("the device answered offset 100 to the chunk at 100 ("), "\(what)")
        }
    }

    @Test("A device that answers 0 again and again is left after three restarts")
    func endlessRestarts() async throws {
        try await MCUmgrBench.with(serving: false) { bench in
            let error = try await Self.upload(bench) { offset in offset == 0 ? 100 : 0 }
            #expect(error?.description == "the device broke MCUmgr SMP: the device answered offset 0 for the 4th time: the upload never advances")
        }
    }
}
