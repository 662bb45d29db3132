import MCUbootImage
import MCUmgr
import Testing

/// The simulated device's image manager taking upload chunks as Zephyr's img_mgmt does (img_mgmt_upload: "Invalid
/// offset. Drop the data, and respond with the offset we're expecting data for."), so that a client's pipelined
/// chunks after one it missed are answered with where to go on from.
@Suite struct MCUbootSlotsUploadTests {
    @Test("A chunk at another offset than the one held is dropped and answered with the offset held")
    func wrongOffsetAnswersExpected() async throws {
        try await MCUmgrBench.with(timing: MCUbootSlots.Timing(erase: .zero, writePerKiB: .zero, swap: .zero), serving: false) { bench in
            let image = try MCUmgrBench.image("signed-ecdsa-p256")
            let slots = bench.slots
            func send(_ offset: Int, _ length: Int) async throws -> Int? {
                let chunk = MCUbootSlotsPowerCutTests.chunk(image, at: offset, length: length)
                return try await slots.upload(chunk.body).get()["off"]?.int
            }
            #expect(try await send(0, 500) == 500)
            #expect(try await send(1_000, 500) == 500, "a chunk past the offset held")
            #expect(try await send(200, 500) == 500, "a chunk before it")
            #expect(await slots.uploadOffset == 500, "neither was written")
            #expect(try await send(500, 500) == 1_000, "the chunk at the offset held is taken")
        }
    }
}
