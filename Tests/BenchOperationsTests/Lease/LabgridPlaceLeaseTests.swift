import BenchOperations
import DeviceControl
import Foundation
import TestSupport
import Testing

/// The lease against a labgrid client that behaves like the real one at its worst moment: the coordinator has
/// given the place, and the client has not exited yet.
@Suite struct LabgridPlaceLeaseTests {
    /// A `labgrid-client` stand-in: `acquire` writes its pid, marks the place held, then takes 30 s to exit; `release` frees
    /// it (and says so in `log`); `show` prints the holder as labgrid does.
    static func slowClient(in directory: URL) throws -> String {
        let script = directory.appendingPathComponent("labgrid-client")
        let held = directory.appendingPathComponent("held").path, log = directory.appendingPathComponent("log").path
        try """
            #!/bin/sh
            # -x COORDINATOR -p PLACE COMMAND
            case "$5" in
              acquire) echo $$ > '\(directory.appendingPathComponent("pid").path)'; touch '\(held)'; echo "acquired place $4"; sleep 30 ;;
              release) rm -f '\(held)'; echo release >> '\(log)'; echo "released place $4" ;;
              show) if [ -e '\(held)' ]; then echo "acquired: host/test"; else echo "acquired: None"; fi ;;
            esac
            """.write(to: script, atomically: true, encoding: .utf8)
        guard chmod(script.path, 0o755) == 0 else { throw CancellationError() }
        return script.path
    }

    /// Found by scripts/labgrid/test-labgrid-place: SIGTERM while `labgrid-client acquire` ran killed the client
    /// after the coordinator had given the place; the run said "acquire failed" and left it held.
    @Test func anAcquireCutShortGivesThePlaceBack() async throws {
        let directory = try TemporaryDirectory.make("labgrid-lease")
        defer { TemporaryDirectory.remove(directory) }
        let client = try Self.slowClient(in: directory)
        let place = LabgridPlace(place: "bench-1", coordinator: "127.0.0.1:20408", environment: [:])
        let acquiring = Task { () -> Result<LabgridPlaceLease, LabgridError> in
            do throws(LabgridError) {
                return .success(try await LabgridPlaceLease.acquire(place, environment: ["HIL_LABGRID_CLIENT": client]))
            } catch {
                return .failure(error)
            }
        }
        let held = directory.appendingPathComponent("held").path
        let clock = ContinuousClock()
        let start = clock.now
        while !FileManager.default.fileExists(atPath: held), clock.now - start < .seconds(10) { try await Task.sleep(for: .milliseconds(20)) }
        guard FileManager.default.fileExists(atPath: held) else {
            acquiring.cancel()
            Issue.record("the stand-in client never acquired within \(clock.now - start); the acquire gave \(await acquiring.value)")
            return
        }
        acquiring.cancel()
        let result = await acquiring.value
        #expect(clock.now - start < .seconds(20), "the cancelled acquire took \(clock.now - start): it waited for the client")
        guard case .failure(let error) = result else {
            Issue.record("a cancelled acquire returned a lease")
            return
        }
        #expect(error.description.hasSuffix("interrupted while acquiring it (released again, in case the coordinator had given it)"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: held), "the place is still held after the cancelled acquire")
        let log = (try? String(contentsOfFile: directory.appendingPathComponent("log").path, encoding: .utf8)) ?? ""
        #expect(log == "release\n", "releases: \(log)")
        // The cut-short client itself is gone, not left running to finish its acquire.
        let pidText = (try? String(contentsOfFile: directory.appendingPathComponent("pid").path, encoding: .utf8)) ?? ""
        let pid = try #require(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)), "no pid file: \(pidText)")
        let gone = clock.now
        while kill(pid, 0) == 0, clock.now - gone < .seconds(5) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(kill(pid, 0) != 0, "the stand-in client (pid \(pid)) still runs after the acquire was cancelled")
    }
}
