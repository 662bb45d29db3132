// Which decoder or state machine one fuzzer process exercises.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fuzz target: a name (`HIL_FUZZ_TARGET`, `--target`, the corpus directory `Tests/Fuzz/corpus/NAME`)
/// and the callback one input runs through. Every callback must never trap on any input; each checks
/// invariants of its own with `Harness.check`, which traps when one fails.
struct FuzzTarget: Sendable {
    let name: String
    /// What the input is and what is checked, for `--list`.
    let summary: String
    /// Runs one input; returns a number derived from everything computed, so nothing is optimized away.
    let run: @Sendable ([UInt8]) -> Int

    /// Every target, `hci` (the H4 framer and HCI packet decoders) first.
    static let all: [FuzzTarget] = [
        FuzzTarget(name: "hci", summary: "H4 framer, HCI events, ACL packets, advertising data", run: Harness.run),
        ATTPDUTarget.target,
        L2CAPTarget.target,
        LESignalingTarget.target,
        GATTClientTarget.target,
        ATTServerTarget.target,
        CommandCompleteTarget.target,
        HostEventsTarget.target,
        SMPTarget.target,
        HostTarget.target,
    ]

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// The target `HIL_FUZZ_TARGET` names (`hci` when unset); nil when it names none.
    static var fromEnvironment: FuzzTarget? {
        guard let raw = getenv("HIL_FUZZ_TARGET") else { return named("hci") }
        return named(String(cString: raw))
    }

    static var names: String { all.map(\.name).joined(separator: ", ") }
}
