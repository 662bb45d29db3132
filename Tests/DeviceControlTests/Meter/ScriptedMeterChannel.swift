import DeviceControl
import PowerMeters
import Synchronization

/// A meter's port played by a test: what the code sends is recorded, and what the meter sends is what the
/// test hands over, when it hands it over. A wait for the meter ends, with `CancellationError`, when its
/// task is cancelled (as a deadline cancels it).
final class ScriptedMeterChannel: MeterChannel {
    let name = "/dev/ttyACM9"
    private struct State {
        var sent: [[UInt8]] = []
        var pending: [MeterRead] = []
        var waiter: CheckedContinuation<MeterRead, any Error>?
        var receives = 0
    }
    private let state = Mutex(State())

    /// Every `send`, in order.
    var sent: [[UInt8]] { state.withLock { $0.sent } }

    /// Returns once the code has called `receive` `count` times: it has taken what the meter sent before.
    func untilReceiving(_ count: Int) async {
        while state.withLock({ $0.receives }) < count { await Task.yield() }
    }

    /// The meter sends `octets`; with `more`, the read that takes them leaves octets waiting in the port (a reader
    /// behind its meter), so it has not drained it.
    func meterSends(_ octets: [UInt8], more: Bool = false) {
        let read = MeterRead(octets: octets, drained: !more)
        let waiter = state.withLock { state -> CheckedContinuation<MeterRead, any Error>? in
            guard let waiter = state.waiter else { state.pending.append(read); return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: read)
    }

    func send(_ octets: [UInt8]) async throws(PowerMeterError) { state.withLock { $0.sent.append(octets) } }

    /// Nothing in a script is stale: what the test hands over is what the code is to read.
    func discardPending() async {}

    func nextRead() async throws -> MeterRead {
        state.withLock { $0.receives += 1 }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<MeterRead, any Error>) in
                // Under the lock the cancellation handler takes: a cancellation that came first is seen here.
                let ready = state.withLock { state -> Result<MeterRead, any Error>? in
                    if !state.pending.isEmpty { return .success(state.pending.removeFirst()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<MeterRead, any Error>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    func close() {}
}
