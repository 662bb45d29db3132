import MCUbootImage
import MCUmgr
import Testing

/// The simulated MCUboot flash when the power goes in the middle of an upload request, on virtual time: the erase
/// the first chunk triggers, and a chunk's write.
@Suite struct MCUbootSlotsPowerCutTests {
    static let timing = MCUbootSlots.Timing(erase: .milliseconds(400), writePerKiB: .seconds(1), swap: .zero)

    static func chunk(_ image: [UInt8], at offset: Int, length: Int) -> MCUmgrMessage {
        let fields = offset == 0 ? MCUmgrRequest.Upload(offset: 0, length: image.count) : MCUmgrRequest.Upload(offset: offset)
        return MCUmgrRequest.upload(fields, data: Array(image[offset..<(offset + length)]), sequence: 0)
    }

    /// Sends `request` to the slots and cuts the power `after` into it; returns the offset the slots hold then.
    static func cut(_ bench: MCUmgrBench, _ request: MCUmgrMessage, after: Duration) async throws -> Int {
        let slots = bench.slots
        let handling = Task(executorPreference: slots.loop) { _ = await slots.upload(request.body) }
        try await Task.sleep(for: after, clock: bench.clock)
        await slots.powerCut()
        await handling.value
        return await slots.uploadOffset
    }

    @Test("A cut during a chunk's write loses that chunk: the offset stays at its start, the chunks before it stay")
    func cutMidWrite() async throws {
        try await MCUmgrBench.with(timing: Self.timing, serving: false) { bench in
            let image = try MCUmgrBench.image("signed-ecdsa-p256")
            // The first chunk: 400 ms of erase, then 1 s for its KiB.
            _ = await bench.slots.upload(Self.chunk(image, at: 0, length: 1024).body)
            #expect(await bench.slots.uploadOffset == 1024)
            let started = bench.clock.now
            let held = try await Self.cut(bench, Self.chunk(image, at: 1024, length: 1024), after: .milliseconds(500))
            #expect(held == 1024, "the chunk being written when the power went is not counted")
            #expect(started.duration(to: bench.clock.now) == .seconds(1), "the cut request ended when its write would have")
            // Power back: the same chunk is taken again, from the offset the slots answer.
            _ = await bench.slots.boot()
            _ = await bench.slots.upload(Self.chunk(image, at: 1024, length: 1024).body)
            #expect(await bench.slots.uploadOffset == 2048)
        }
    }

    @Test("A cut during the erase the first chunk triggers leaves no image in the secondary slot and no upload")
    func cutMidErase() async throws {
        try await MCUmgrBench.with(timing: Self.timing, serving: false) { bench in
            let image = try MCUmgrBench.image("signed-ecdsa-p256")
            let held = try await Self.cut(bench, Self.chunk(image, at: 0, length: 1024), after: .milliseconds(200))
            #expect(held == 0)
            #expect(await bench.slots.secondary == nil)
            #expect(await bench.slots.states.count == 1)
            // A chunk at a later offset has no upload to go on: the slots answer 0, where a fresh upload starts.
            let answer = await bench.slots.upload(Self.chunk(image, at: 1024, length: 1024).body)
            #expect(try answer.get()["off"]?.int == 0)
        }
    }
}
