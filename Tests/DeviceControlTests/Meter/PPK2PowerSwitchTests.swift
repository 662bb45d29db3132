import DeviceControl
import EventLoops
import PowerMeters
import Testing
import TestSupport

/// A PPK2 in source mode as a power switch, on a scripted port and a stepped clock: DEVICE_RUNNING_SET sent, and
/// the transition verified by the current the stream measures after it, within its 1 s deadline.
@Suite("PPK2 power switch")
struct PPK2PowerSwitchTests {
    /// 10 ms of samples (1,000) at `reading` on range 0 (0 reads as 0 µA with the default calibration), their
    /// counters numbering them from `first`.
    static func tenMilliseconds(_ reading: UInt32, from first: Int = 100) -> [UInt8] {
        PPK2StreamTests.words(Array(repeating: reading, count: 1000), range: 0, from: first)
    }

    /// Returns once the switch under test has sent `command` (it reads the clock just before).
    static func untilSent(_ command: [UInt8], on channel: ScriptedMeterChannel) async {
        while !channel.sent.contains(command) { await Task.yield() }
    }

    /// 10 ms on, the meter sends them, and the stream takes them before the clock moves again (its `read`th read,
    /// counting the helper's first) — so that each read is placed on the clock when it came. The helper's first read
    /// brought 100 samples and each read since 1,000.
    static func tenMillisecondsLater(_ reading: UInt32, read: Int, on channel: ScriptedMeterChannel, _ time: VirtualTime) async {
        await time.advance(by: .milliseconds(10))
        channel.meterSends(tenMilliseconds(reading, from: 100 + 1000 * (read - 3)))
        await channel.untilReceiving(read)
    }

    /// A streaming PPK2's switch, told to switch off: returns once the command is sent.
    static func switchingOff(_ time: VirtualTime) async throws
        -> (ScriptedMeterChannel, PPK2Stream<LoopClock>, PPK2PowerSwitch<LoopClock>, Task<PowerTransition, any Error>) {
        let (channel, _, stream) = try await PPK2StreamTests.streaming(time)
        let power = PPK2PowerSwitch(name: "ppk2-supply", stream: stream)
        let switching = Task { try await power.off() }
        await untilSent([0x0C, 0], on: channel)
        return (channel, stream, power, switching)
    }

    @Test("Off: DEVICE_RUNNING_SET 0, verified by the first 10 ms below 0.5 µA after it")
    func offVerified() async throws {
        try await withSteppedTime { time in
            let (channel, stream, power, switching) = try await Self.switchingOff(time)
            // The first 10 ms still draw (the accessory's capacitors), the next 10 ms nothing.
            for (index, reading) in [UInt32(2000), 0].enumerated() {
                await Self.tenMillisecondsLater(reading, read: index + 3, on: channel, time)
            }
            let transition = try await switching.value
            #expect(channel.sent.contains([0x0C, 0]))
            #expect(transition.verification == .verified(evidence: "the PPK2 measured 0.0 µA over the 0.01 seconds ending 0.02 seconds after the command (below 0.5 µA)"))
            #expect(try await power.state().state == .off)
            await stream.stop()
        }
    }

    @Test("Off while the current stays: a verification failure at the 1 s deadline naming the last figure")
    func offNotSeen() async throws {
        try await withSteppedTime { time in
            let (channel, stream, _, switching) = try await Self.switchingOff(time)
            var reference = PPK2Decoder(calibration: .defaults, supplyMillivolts: 3000)
            let level = try reference.decode(Self.tenMilliseconds(2000)).last?.microamperes ?? 0
            for index in 0..<100 {
                await Self.tenMillisecondsLater(2000, read: index + 3, on: channel, time)
            }
            let error = await #expect(throws: PowerSwitchError.self) { try await switching.value }
            #expect(error?.kind == .verificationFailed)
            let shown = (level * 1000).rounded() / 1000
            #expect(error?.message == "ppk2-supply: switched off, but the PPK2 still measured \(shown) µA over the last 0.01 seconds of 1.0 seconds after the command (off is below 0.5 µA)")
            await stream.stop()
        }
    }

    @Test("On: verified by the first 10 ms above 0.5 µA; a stream that stops makes it a device failure")
    func onAndStall() async throws {
        try await withSteppedTime { time in
            let (channel, t0, stream) = try await PPK2StreamTests.streaming(time)
            let power = PPK2PowerSwitch(name: "ppk2-supply", stream: stream)
            let switching = Task { try await power.on() }
            await Self.untilSent([0x0C, 1], on: channel)
            await time.advance(by: .milliseconds(10))
            channel.meterSends(Self.tenMilliseconds(2000))
            let transition = try await switching.value
            #expect(transition.verification.isVerified)
            // Nothing more comes: the stream's deadline, 1 s after the last read (at 11 ms), fails the next switch.
            let stalled = Task { try await power.on() }
            let due = t0.advanced(by: .milliseconds(11) + .seconds(1))
            #expect(await PPK2StreamTests.armed(due, on: time))
            await time.advance(to: due)
            let error = await #expect(throws: PowerSwitchError.self) { try await stalled.value }
            #expect(error?.kind == .deviceFailure)
            #expect(error?.message.hasPrefix("ppk2-supply: switched on, but its PPK2 gave no figures to verify it: PPK2 at /dev/ttyACM9 stopped streaming") == true, "\(String(describing: error))")
            await stream.stop()
        }
    }
}
