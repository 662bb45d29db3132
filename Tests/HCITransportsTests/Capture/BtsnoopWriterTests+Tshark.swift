import Foundation
import TestSupport
import Testing
@testable import HCITransports

/// Our H4 btsnoop captures as Wireshark's tshark (a child process) reads them: the packets it decodes and the
/// wall-clock dates it gives each record. The bounds compare dates written with dates read back, not durations.
@Suite(.tags(.process)) struct BtsnoopTsharkTests {
    @Test func tsharkDecodesOurCapture() async throws {
        let path = BtsnoopWriterTests.temporaryPath("tshark.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try BtsnoopWriter(path: path)
        for (packet, received) in BtsnoopWriterTests.packets { writer.write(packet, received: received) }
        writer.close()
        let executable = try #require(Tshark.path, "\(Tshark.missing)")
        let (status, output) = await runProgram(executable, ["-r", path])
        #expect(status == 0)
        let lines = output.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.first?.contains("Sent Reset") == true)
        #expect(lines.dropFirst().first?.contains("Rcvd Command Complete (Reset)") == true)
        #expect(lines.last?.contains("L2CAP") == true || lines.last?.contains("ATT") == true)
    }

    /// tshark's decoded time of each record is the wall-clock time it was written at: a capture lines up
    /// with a lab log.
    @Test func tsharkDatesRecordsAtTheWallClock() async throws {
        let path = BtsnoopWriterTests.temporaryPath("tshark-time.btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try BtsnoopWriter(path: path)
        let written = Date()
        writer.write(BtsnoopWriterTests.packets[0].0, received: false, at: written)
        writer.write(BtsnoopWriterTests.packets[0].0, received: false, at: Date(timeIntervalSince1970: 1_700_000_000.25))
        writer.close()
        let executable = try #require(Tshark.path, "\(Tshark.missing)")
        let (status, output) = await runProgram(executable, ["-r", path, "-T", "fields", "-e", "frame.time_epoch"])
        #expect(status == 0, "\(output)")
        let times = output.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        #expect(times.count == 2, "\(output)")
        // Within a millisecond: the record holds whole microseconds, and tshark prints them back as a float.
        if let first = times.first { #expect(abs(first - written.timeIntervalSince1970) < 0.001, "tshark dates it \(first), written at \(written.timeIntervalSince1970)") }
        // Exact to the microsecond: a date written as a whole number of them comes back as written.
        if let second = times.last { #expect(abs(second - 1_700_000_000.25) < 0.000_001, "tshark dates it \(second)") }
    }
}
