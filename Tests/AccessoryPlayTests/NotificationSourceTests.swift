import AccessoryPlay
import Foundation
import HCIPackets
import StrictJSON
import TestSupport
import Testing

/// A profile's `notify` sources: the values each makes, and the errors a bad entry gets.
@Suite struct NotificationSourceTests {
    static let level = BluetoothUUID(UInt16(0x2A19))

    func profile(_ notify: String, directory: String = ".") throws(InputError) -> AccessoryProfile {
        try AccessoryProfile(reading: try InputDocument.parse(Array(#"{"name": "A", "services": [{"profile": "battery"}], "notify": ["#.utf8) + Array(notify.utf8) + Array("]}".utf8)),
                             directory: directory)
    }

    func message(_ notify: String) -> String? {
        do { _ = try profile(notify); return nil } catch { return error.message }
    }

    @Test func aCounterStepsLittleEndianAfterItsPrefixAndWraps() {
        let source = NotificationSource(characteristic: Self.level, intervalMilliseconds: 100, prefix: [0xAA], kind: .counter(start: 0xFFFE, step: 1, octets: 2))
        #expect(source.value(0, atMilliseconds: 0) == [0xAA, 0xFE, 0xFF])
        #expect(source.value(1, atMilliseconds: 100) == [0xAA, 0xFF, 0xFF])
        #expect(source.value(2, atMilliseconds: 200) == [0xAA, 0x00, 0x00])
    }

    /// Each shape at the start, a quarter and half of its period, between min 20 and max 100.
    @Test(arguments: [(NotificationSource.Shape.sine, [20, 60, 100]), (.triangle, [20, 60, 100]), (.square, [20, 20, 100]), (.sawtooth, [20, 40, 60])])
    func aWaveFollowsItsShape(shape: NotificationSource.Shape, expected: [Int]) {
        let source = NotificationSource(characteristic: Self.level, intervalMilliseconds: 10,
                                        kind: .waveform(shape, periodMilliseconds: 1000, minimum: 20, maximum: 100, octets: 1))
        let values = [0.0, 250, 500].map { Int(source.value(0, atMilliseconds: $0).first ?? 0) }
        #expect(values == expected)
    }

    @Test func aFileIsPlayedInALoop() throws {
        let directory = try TemporaryDirectory.make("notify-file")
        defer { TemporaryDirectory.remove(directory) }
        try "# battery trace\n64\n\n63\n0x62\n".write(to: directory.appendingPathComponent("levels.txt"), atomically: true, encoding: .utf8)
        let read = try profile(#"{"characteristic": "2A19", "every_ms": 1000, "file": "levels.txt"}"#, directory: directory.path)
        let source = try #require(read.notificationSources.first)
        #expect((0..<4).map { source.value($0, atMilliseconds: 0) } == [[0x64], [0x63], [0x62], [0x64]])
        try "64\nzz\n".write(to: directory.appendingPathComponent("bad.txt"), atomically: true, encoding: .utf8)
        #expect(throws: InputError.self) { try profile(#"{"characteristic": "2A19", "every_ms": 1000, "file": "bad.txt"}"#, directory: directory.path) }
    }

    @Test func badEntriesNameTheirField() {
        #expect(message(#"{"characteristic": "2A37", "every_ms": 100, "counter": {}}"#)
                == "notify[0].characteristic: no characteristic 2A37 with the notify property in the profile's services")
        #expect(message(#"{"characteristic": "2A19", "every_ms": 100}"#) == "notify[0]: missing a source: counter, waveform or file")
        #expect(message(#"{"characteristic": "2A19", "every_ms": 100, "counter": {}, "waveform": {}}"#)
                == "notify[0].waveform: a source is one of counter, waveform or file")
        #expect(message(#"{"characteristic": "2A19", "every_ms": 5, "counter": {}}"#)?.hasPrefix("notify[0].every_ms: expected how often it notifies, from 10 to 3600000 ms") == true)
        #expect(message(#"{"characteristic": "2A19", "every_ms": 100, "waveform": {"shape": "triangel", "period_ms": 100, "min": 0, "max": 1}}"#)
                == "notify[0].waveform.shape: unknown shape 'triangel'; did you mean triangle?")
        #expect(message(#"{"characteristic": "2A19", "every_ms": 100, "waveform": {"shape": "sine", "period_ms": 100, "min": 5, "max": 5}}"#)
                == "notify[0].waveform.max: max must be above min (5)")
        #expect(message(#"{"characteristic": "2A19", "every_ms": 100, "waveform": {"shape": "sine", "period_ms": 100, "min": 0, "max": 300}}"#)?
                .hasPrefix("notify[0].waveform.max: expected a value from 0 to 255 (1 octets)") == true)
    }
}
