#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@testable import HILResults
import Testing
import TestSupport

/// The space a run sets aside for its last write: allocated for real (the file system's block count, which
/// `stat(2)` reports, covers it: a sparse file would not help on a full disk), its owner's alone, given back once.
@Suite struct ResultsReserveTests {
    @Test func theSpaceIsAllocatedForRealAndGivenBackOnce() throws {
        let directory = try TemporaryDirectory.make("hil-reserve")
        defer { TemporaryDirectory.remove(directory) }
        let layout = ResultsLayout(directory)
        try layout.create()
        let reserve = try ResultsReserve.make(in: layout, size: 1 << 20)
        var status = stat()
        try #require(stat(layout.reserve.path, &status) == 0)
        #expect(status.st_size == 1 << 20)
        #expect(Int(status.st_blocks) * 512 >= 1 << 20, "\(status.st_blocks) blocks of 512 bytes: sparse")
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(reserve.release())
        #expect(!FileManager.default.fileExists(atPath: layout.reserve.path))
        #expect(!reserve.release(), "there is nothing left to give back")
    }

    @Test func aDirectoryThatIsNotThereIsAnErrorNamingTheFile() throws {
        let layout = ResultsLayout(URL(fileURLWithPath: "/nonexistent-hil-results/run"))
        #expect {
            _ = try ResultsReserve.make(in: layout)
        } throws: { error in
            "\(error)".contains("/nonexistent-hil-results/run/.space-reserve") && "\(error)".contains("No such file or directory")
        }
    }

    /// A previous run's reserve (a run killed before it gave it back) goes with the rest of that run.
    @Test func aPreviousRunsReserveIsRemovedWithIt() throws {
        let directory = try TemporaryDirectory.make("hil-reserve")
        defer { TemporaryDirectory.remove(directory) }
        let layout = ResultsLayout(directory)
        try layout.create()
        _ = try ResultsReserve.make(in: layout, size: 4096)
        try layout.removePreviousRun()
        #expect(!FileManager.default.fileExists(atPath: layout.reserve.path))
    }
}
