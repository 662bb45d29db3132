import Foundation
import Testing

/// Generated rig variants (what found the defects of issue 11, as a regression test): every key of the
/// shipped rigs misspelt by one edit must be refused with a did-you-mean naming the right key, and every
/// number replaced by 1.5, -1, 1e22 or 2^63 must be refused naming the field and the value as written —
/// unless the field's documented range holds it (listed below, so an accepted variant is a decision).
///
/// Serialized, and each test's variants made and checked on a thread of its own at the lowest priority (`atLowPriority`): they are
/// seconds of CPU work, and on a 2-core machine they must not hold the cooperative pool that timing tests
/// running beside them need (yielding between variants was not enough: the pool stayed starved ~6 s).
@Suite(.serialized) struct RigMutationTests {
    static let rigs = ["rigs/simulated.json", "rigs/checks/simulated-faults.json", "rigs/lab-bench-example.json"]

    @Test(arguments: rigs)
    func everyMisspeltKeyIsRefusedWithADidYouMean(rig: String) async throws {
        let (count, wrong) = try await atLowPriority { try Self.checkMisspellings(rig) }
        #expect(count > 150, "the generator made \(count) variants of \(rig)")
        #expect(wrong.isEmpty, "\(wrong.count) of \(count) misspellings were not refused with the right did-you-mean:\n\(wrong.prefix(20).joined(separator: "\n"))")
    }

    /// The misspelt variants of `rig`, and those not refused with the right did-you-mean.
    static func checkMisspellings(_ rig: String) throws -> (count: Int, wrong: [String]) {
        let variants = RigVariants.misspeltKeys(try RigVariants.document(rig))
        var wrong: [String] = []
        for variant in variants {
            guard case .misspeltKey(let key) = variant.change else { continue }
            // One edit can be as close to two keys (econnectMilliseconds: reconnect…, connect…): the right
            // key must then be among those named.
            let message = RigTests.message(Data(variant.text.utf8))
            let prefix = "\(variant.path): unknown key; did you mean "
            let named = message.hasPrefix(prefix) && message.hasSuffix("?")
                ? message.dropFirst(prefix.count).dropLast().replacingOccurrences(of: " or ", with: ", ").components(separatedBy: ", ") : []
            if !named.contains(key) { wrong.append("\(variant.path): \(message)") }
        }
        return (variants.count, wrong)
    }

    /// Values a field's documented range holds: 1.5 for a duration (ms or s) with no minimum above it, for a
    /// stream's floor (bit/s) and for a current model's or energy budget's amounts (µA, µC, ms), -1 dBm for an RSSI.
    static func isInRange(_ value: String, key: String) -> Bool {
        switch value {
        case "1.5":
            let fractionalDurations = ["Milliseconds", "Seconds"].contains { key.hasSuffix($0) } || key == "seconds"
            let minimumAbove = ["supervisionTimeoutMilliseconds", "connectionIntervalMilliseconds", "advertisingIntervalMilliseconds",
                                "requestsIntervalMilliseconds", "requestedIntervalMilliseconds", "centralIntervalMilliseconds"]
            // A stream's floor is any rate above 0 bit/s; currents, charges and energy windows are any amount in range.
            let fractionalQuantities = ["avg_uA_max", "charge_uC_max", "after_ms", "window_ms", "sleep_uA", "advertisingChannel_uC",
                                        "connectionEvent_uC", "transmit_uC_per_us", "receive_uC_per_us", "boot_uC"]
            return (fractionalDurations && !minimumAbove.contains(key)) || key == "floorBitsPerSecond" || fractionalQuantities.contains(key)
        case "-1": return key == "rssi"
        default: return false
        }
    }

    @Test(arguments: rigs)
    func everyNumberOutOfItsFieldIsRefusedNamingTheFieldAndTheValue(rig: String) async throws {
        let (count, wrong) = try await atLowPriority { try Self.checkNumbers(rig) }
        #expect(count >= 20, "\(rig) has \(count) numbers")
        #expect(wrong.isEmpty, "\(wrong.count) variants of \(rig) went wrong:\n\(wrong.prefix(20).joined(separator: "\n"))")
    }

    /// The values each number is replaced by.
    static let outOfRange = ["1.5", "-1", "1e22", "9223372036854775808"]

    /// How many numbers `rig` holds, and the variants of them that went wrong.
    static func checkNumbers(_ rig: String) throws -> (count: Int, wrong: [String]) {
        let variants = RigVariants.numbers(try RigVariants.document(rig), outOfRange)
        var wrong: [String] = []
        for variant in variants {
            guard case .number(let value) = variant.change else { continue }
            let path = variant.path
            let key = path.split(separator: ".").last.map { String($0.split(separator: "[").first ?? "") } ?? path
            let message = RigTests.message(Data(variant.text.utf8))
            if Self.isInRange(value, key: key) {
                if message != "no error" { wrong.append("\(path) = \(value) is in range but: \(message)") }
            } else if !(message.hasPrefix("\(path): ") && message.hasSuffix("found \(value)")) {
                wrong.append("\(path) = \(value): \(message)")
            }
        }
        return (variants.count / outOfRange.count, wrong)
    }
}
