// le-signaling: LE signaling channel commands.
import HCIPackets

/// The input is one LE signaling channel payload (Core v5.4 Vol 3 Part A §4): code, identifier, length,
/// data. What decodes keeps the identifier, and its encoding decodes to the same command.
enum LESignalingTarget {
    static let target = FuzzTarget(name: "le-signaling", summary: "LE signaling command decoder, re-encoding", run: run)

    static func run(_ input: [UInt8]) -> Int {
        do {
            let command = try LESignalingCommand(decoding: input)
            Harness.check(command.identifier == input[1], "signaling command lost its identifier")
            let encoded = command.encoded
            Harness.check((try? LESignalingCommand(decoding: encoded)) == command,
                          "signaling command \(command) does not decode from its own encoding")
            return encoded.count
        } catch {
            return error.description.count
        }
    }
}
