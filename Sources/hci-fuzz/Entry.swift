// Entry points of hci-fuzz.
//
// `swift build --product hci-fuzz --sanitize fuzzer` links libFuzzer, whose own `main` drives
// `LLVMFuzzerTestOneInput` below (SwiftPM compiles an executable as a library and leaves `main`
// to libFuzzer when the fuzzer sanitizer is on). Every other build (plain `swift build`, release,
// `--build-tests`) has no libFuzzer: SwiftPM names an executable's entry point `<module>_main`
// and links `main` to it, so `hci_fuzz_main` below is the program's `main` there, and runs the
// same callback in replay mode. That is why this target has no `main.swift` and no `@main`:
// either would define `main` in the libFuzzer build too, where it collides with libFuzzer's.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checksum of everything the harness formatted, so that no work is optimized away.
nonisolated(unsafe) private var touchedTotal = 0

/// The target `HIL_FUZZ_TARGET` names, chosen once per process.
private let selectedTarget = FuzzTarget.fromEnvironment

/// The libFuzzer callback: one input, 0 to keep it in the corpus if it adds coverage.
@_cdecl("LLVMFuzzerTestOneInput")
package func hciFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target = selectedTarget else {
        let message = Array("hci-fuzz: HIL_FUZZ_TARGET names no target (targets: \(FuzzTarget.names))\n".utf8)
        _ = write(2, message, message.count)
        exit(2)
    }
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    touchedTotal &+= target.run(input)
    return 0
}

/// The program's entry point when libFuzzer is not linked: replay mode.
@_cdecl("hci_fuzz_main")
func hciFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var arguments: [String] = []
    for index in 1..<max(1, Int(argc)) {
        if let word = argv?[index] { arguments.append(String(cString: word)) }
    }
    let status = Replay.main(arguments)
    fflush(nil)  // all streams: stdout is shared mutable state to Swift 6
    return status
}
