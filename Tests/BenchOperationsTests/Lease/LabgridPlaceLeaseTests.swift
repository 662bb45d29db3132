import BenchOperations
import DeviceControl
import Foundation
import TestSupport
import Testing

/// The lease against a labgrid client that behaves like the real one at its worst moment: the coordinator has
/// given the place, and the client has not exited yet. The client is a shell script: a child process.
@Suite(.tags(.process)) struct LabgridPlaceLeaseTests {
    /// A `labgrid-client` stand-in: `acquire` writes its pid, marks the place held, says so through the FIFO
    /// `acquired`, then takes 30 s to exit (and says so in `log`); `release` frees it (and says so in `log`);
    /// `show` prints the holder as labgrid does.
    static func slowClient(in directory: URL) throws -> String {
        let script = directory.appendingPathComponent("labgrid-client")
        let held = directory.appendingPathComponent("held").path, log = directory.appendingPathComponent("log").path
        let acquired = directory.appendingPathComponent("acquired").path
        try writeScript("""
            #!/bin/sh
            # -x COORDINATOR -p PLACE COMMAND
            case "$5" in
              acquire) echo $$ > '\(directory.appendingPathComponent("pid").path)'; touch '\(held)'; echo held > '\(acquired)'; echo "acquired place $4"; sleep 30; echo acquire-ended >> '\(log)' ;;
              release) rm -f '\(held)'; echo release >> '\(log)'; echo "released place $4" ;;
              show) if [ -e '\(held)' ]; then echo "acquired: host/test"; else echo "acquired: None"; fi ;;
            esac
            """, to: script)
        return script.path
    }

    /// Found by scripts/labgrid/test-labgrid-place: SIGTERM while `labgrid-client acquire` ran killed the client
    /// after the coordinator had given the place; the run said "acquire failed" and left it held.
    @Test func anAcquireCutShortGivesThePlaceBack() async throws {
        let directory = try TemporaryDirectory.make("labgrid-lease")
        defer { TemporaryDirectory.remove(directory) }
        let client = try Self.slowClient(in: directory)
        let place = LabgridPlace(place: "bench-1", coordinator: "127.0.0.1:20408", environment: [:])
        let held = directory.appendingPathComponent("held").path
        let acquired = try FIFO.make(in: directory, named: "acquired")
        let acquiring = Task { () -> Result<LabgridPlaceLease, LabgridError> in
            do throws(LabgridError) {
                return .success(try await LabgridPlaceLease.acquire(place, environment: ["HIL_LABGRID_CLIENT": client]))
            } catch {
                return .failure(error)
            }
        }
        // The stand-in has taken the place (the coordinator has given it) and is still running.
        guard let said = await value(of: { await acquired.readToEnd() }, unlessEnded: acquiring) else {
            Issue.record("the acquire ended before the stand-in client took the place: \(await acquiring.value)")
            return
        }
        #expect(said == "held\n")
        #expect(FileManager.default.fileExists(atPath: held))
        acquiring.cancel()
        let result = await acquiring.value
        guard case .failure(let error) = result else {
            Issue.record("a cancelled acquire returned a lease")
            return
        }
        #expect(error.description.hasSuffix("interrupted while acquiring it (released again, in case the coordinator had given it)"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: held), "the place is still held after the cancelled acquire")
        let log = (try? String(contentsOfFile: directory.appendingPathComponent("log").path, encoding: .utf8)) ?? ""
        // One release, and the cut-short acquire never ran to its end: the lease did not wait for the client.
        #expect(log == "release\n", "releases: \(log)")
        // The cut-short client itself is gone, not left running to finish its acquire.
        let pidText = (try? String(contentsOfFile: directory.appendingPathComponent("pid").path, encoding: .utf8)) ?? ""
        let pid = try #require(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)), "no pid file: \(pidText)")
        // It had SIGKILL; its reaping is the watcher thread's, seen only as the pid going away: polled, for at
        // most 5 s (microseconds, unless the machine is starved of CPU).
        let gone = await eventually(within: .seconds(5)) { kill(pid, 0) != 0 }
        #expect(gone, "the stand-in client (pid \(pid)) still runs after the acquire was cancelled")
    }
}
