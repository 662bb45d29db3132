// Test kind: endToEnd — part of the fixture package the interrupt tests run through `hil run` (not a test of BluetoothHIL).
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Two suites of quick cases, one case that holds while it runs, and one that fills the results directory's disk.
@Suite(.holding) struct First {
    @Test func passes() {}
    @Test func holds() { Hold.at("duringCase") }
}

@Suite(.holding) struct Second {
    @Test func passesToo() {}
    @Test func passesAgain() {}
}

/// `--filter Filling`: a case passes, then the second fills the disk `$HIL_RESULTS` is on (a small tmpfs the
/// driver mounted) — after holding at "beforeFill", so that the driver can wait until `hil run` has written its
/// results for the first — and `hil run` cannot write its results for the cases after it. Run in this order.
@Suite(.serialized) struct Filling {
    @Test func beforeTheDiskIsFull() {}
    @Test func fillsTheDisk() throws {
        Hold.at("beforeFill")
        let results = try #require(ProcessInfo.processInfo.environment["HIL_RESULTS"])
        let fd = open(results + "/filler", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        let block = [UInt8](repeating: 0, count: 65536)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
    }
    @Test func afterTheDiskIsFull() {}
    @Test func afterTheDiskIsFullToo() {}
}
