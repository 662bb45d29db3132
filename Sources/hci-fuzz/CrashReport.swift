// Replay mode: on a trap, name the input that caused it and print its bytes, as libFuzzer does.
#if canImport(Glibc)
import Glibc

/// Keeps a copy of the input being run; a handler for the trap signals writes it to stderr (with
/// `write`, nothing that allocates), puts back the handlers it replaced (the Swift backtracer's, or
/// the default) and returns, so the faulting instruction traps again into them.
enum CrashReport {
    private static let signals = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]
    nonisolated(unsafe) private static var previous: [sigaction] = []
    /// "label\n" then the input in hex, built before each run.
    nonisolated(unsafe) private static var report: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)
    nonisolated(unsafe) private static var reportLength = 0

    static func install() {
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in CrashReport.handle() }
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous.append(old)
        }
    }

    /// Records the input about to run.
    static func current(_ input: [UInt8], label: String) {
        let header = Array("hci-fuzz: trap while running \(label)\nhci-fuzz: input (\(input.count) bytes, hex):".utf8)
        let needed = header.count + 3 * input.count + 1
        if report.count < needed {
            report.deallocate()
            report = .allocate(capacity: max(needed, 2 * report.count))
        }
        var length = 0
        for byte in header {
            report[length] = byte
            length += 1
        }
        let digits = Array("0123456789abcdef".utf8)
        for byte in input {
            report[length] = UInt8(ascii: " ")
            report[length + 1] = digits[Int(byte >> 4)]
            report[length + 2] = digits[Int(byte & 0x0F)]
            length += 3
        }
        report[length] = UInt8(ascii: "\n")
        reportLength = length + 1
    }

    private static func handle() {
        if let base = report.baseAddress { _ = write(2, base, reportLength) }
        for (signal, old) in zip(signals, previous) {
            var restore = old
            sigaction(signal, &restore, nil)
        }
    }
}
#else
enum CrashReport {
    static func install() {}
    static func current(_ input: [UInt8], label: String) {}
}
#endif
