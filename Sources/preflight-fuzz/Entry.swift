// Entry points of preflight-fuzz, laid out as hci-fuzz's (see Sources/hci-fuzz/Entry.swift): with
// `--sanitize fuzzer` libFuzzer's `main` drives `LLVMFuzzerTestOneInput`; in every other build
// `preflight_fuzz_main` is the program's `main` and replays files. No `main.swift`, no `@main`.
//
// libFuzzer has one callback per binary, so the reader it drives is chosen by PREFLIGHT_FUZZ_TARGET
// (xml-plist, binary-plist, axml, zip, manifest-xml), which scripts/fuzz/fuzz-preflight sets per run.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Preflight

/// Checksum of everything the readers returned, so that no work is optimized away.
nonisolated(unsafe) private var touchedTotal = 0

/// The target named by PREFLIGHT_FUZZ_TARGET, read once; the process exits when it is missing or unknown.
private let fuzzTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["PREFLIGHT_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("preflight-fuzz: set PREFLIGHT_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'\n".utf8))
        exit(2)
    }
    return target
}()

/// The libFuzzer callback: one input, 0 to keep it in the corpus if it adds coverage.
@_cdecl("LLVMFuzzerTestOneInput")
package func preflightFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Data(bytes: $0, count: size) } ?? Data()
    touchedTotal &+= fuzzTarget.run(input)
    return 0
}

/// The program's entry point when libFuzzer is not linked: replay mode.
@_cdecl("preflight_fuzz_main")
func preflightFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var arguments: [String] = []
    for index in 1..<max(1, Int(argc)) {
        if let word = argv?[index] { arguments.append(String(cString: word)) }
    }
    let status = Replay.main(arguments)
    fflush(nil)
    return status
}
