import DeviceControl
import Foundation
import EventLoops
import HILResults

/// A bench that is a labgrid place, held for one run: acquired from the coordinator before the first test
/// (waiting for it with `--wait`), released after the last — on success, failure, SIGINT and SIGTERM alike.
/// A run killed with SIGKILL cannot release it; labgrid has no lease expiry, so the next run says who holds
/// it and how to free it.
package final class LabgridPlaceLease: Sendable {
    package let client: LabgridClient
    /// `HOST/USER` as labgrid records us, read back after acquiring.
    package let holder: String?

    private init(client: LabgridClient, holder: String?) {
        self.client = client
        self.holder = holder
    }

    /// Acquires `place`, polling every `pollInterval` for up to `wait` while someone else holds it, the wait
    /// and the polls on `clock` (real time unless a test gives its own); `notice` hears once that it is busy and
    /// who holds it. `environment` chooses the client (`HIL_LABGRID_CLIENT`, `LabgridClient`).
    package static func acquire(_ place: LabgridPlace, wait: Duration = .zero, pollInterval: Duration = .seconds(1),
                               environment: [String: String] = ProcessInfo.processInfo.environment, clock: LoopClock = .real,
                               notice: @Sendable (String) -> Void = { _ in }) async throws(LabgridError) -> LabgridPlaceLease {
        let client = LabgridClient(place, environment: environment)
        let start = clock.now
        var announced = false
        while true {
            do {
                try await client.acquire()
                break
            } catch where error.kind == .held {
                let waited = clock.now - start
                let free = "if that run was killed, free the place with `labgrid-client -x \(place.coordinator) -p \(place.place) release --kick`"
                if waited >= wait {
                    let tail = wait > .zero ? "; waited \(ProgressText.duration(wait / .seconds(1)))" : " (use --wait SECONDS to wait for it)"
                    throw LabgridError(.held, "\(error.description)\(tail); \(free)", holder: error.holder)
                }
                if !announced {
                    notice("\(error.description); waiting up to \(ProgressText.duration(wait / .seconds(1)))")
                    announced = true
                }
                let holder = error.holder
                do { try await Task.sleep(for: min(pollInterval, wait - waited), clock: clock) } catch {
                    throw LabgridError(.held, "\(place): the wait for it was cancelled", holder: holder)
                }
            } catch where Task.isCancelled {
                // Cut short (SIGINT, SIGTERM) while labgrid-client ran: the coordinator may have given us the place
                // already (the scenario caught a run that said "acquire failed" and left it held). Give it back;
                // release refuses a place someone else holds.
                await Task { try? await client.release() }.value
                throw LabgridError(.failed, "\(place): interrupted while acquiring it (released again, in case the coordinator had given it)")
            }
        }
        let holder = try? await client.show().holder
        return LabgridPlaceLease(client: client, holder: holder)
    }

    /// Releases the place; runs to its end even in a cancelled task (an interrupted run still frees its bench).
    /// Returns the error that kept it held, if any.
    @discardableResult
    package func release() async -> LabgridError? {
        let client = client
        return await Task { () -> LabgridError? in
            do throws(LabgridError) {
                try await client.release()
                return nil
            } catch {
                return error
            }
        }.value
    }
}
