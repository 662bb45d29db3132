// One writer at a time per bond file inside this process.
import Synchronization
import EventLoops

/// The writers of one bond file inside this process, one at a time in the order they came. Each waits
/// here (resumed by the writer before it, no polling) before it takes the file's flock, which orders it
/// with other processes; a wait ends at its deadline, on the store's clock, or when its task is cancelled.
final class BondFileGate: Sendable {
    /// The gate every `AdapterBondFile` of this process shares.
    static let shared = BondFileGate()

    /// Why a wait ended without the gate.
    enum Refusal: Error, Sendable {
        case timedOut
        case cancelled
    }

    private enum Entry {
        /// Its wait has begun and not yet queued.
        case arriving
        case waiting(key: String, continuation: CheckedContinuation<Refusal?, Never>)
        /// Ended (deadline, cancellation) before it queued.
        case ended(Refusal)
    }

    private struct State {
        var held: Set<String> = []
        var queues: [String: [UInt64]] = [:]
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 1
    }

    private let state = Mutex(State())

    /// Waits until this caller is the one writer of `key` in this process, at most until `deadline` on
    /// `clock`. Every successful `enter` is followed by one `leave(key)`.
    func enter(_ key: String, until deadline: LoopClock.Instant, on clock: LoopClock) async throws(Refusal) {
        let id = state.withLock { state -> UInt64? in
            if state.held.insert(key).inserted { return nil }
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = .arriving
            return id
        }
        guard let id else { return }
        // The deadline is a child task, so that no sleep outlives the wait (a sleep begun on a clock whose
        // loops were shut down would start them again).
        let refusal = await withTaskGroup(of: Void.self) { group -> Refusal? in
            group.addTask {
                do { try await clock.sleep(until: deadline) } catch { return }
                self.end(id, .timedOut)
            }
            let refusal = await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Refusal?, Never>) in
                    queue(id, key, continuation)
                }
            } onCancel: {
                end(id, .cancelled)
            }
            group.cancelAll()
            return refusal
        }
        if let refusal { throw refusal }
    }

    /// Queues the wait `id` for `key`, or ends it at once: it ended already, or `key` is free now.
    private func queue(_ id: UInt64, _ key: String, _ continuation: CheckedContinuation<Refusal?, Never>) {
        let now = state.withLock { state -> Refusal?? in
            if case .ended(let refusal)? = state.entries[id] {
                state.entries[id] = nil
                return .some(refusal)
            }
            if state.held.insert(key).inserted {
                state.entries[id] = nil
                return .some(nil)
            }
            state.entries[id] = .waiting(key: key, continuation: continuation)
            state.queues[key, default: []].append(id)
            return nil
        }
        if let now { continuation.resume(returning: now) }
    }

    /// Hands `key` to the next writer waiting for it, or frees it.
    func leave(_ key: String) {
        let next = state.withLock { state -> CheckedContinuation<Refusal?, Never>? in
            while let id = state.queues[key]?.first {
                state.queues[key]?.removeFirst()
                if case .waiting(_, let continuation)? = state.entries.removeValue(forKey: id) { return continuation }
            }
            state.queues[key] = nil
            state.held.remove(key)
            return nil
        }
        next?.resume(returning: nil)
    }

    /// Ends the wait `id` with `refusal` unless it has the gate already.
    private func end(_ id: UInt64, _ refusal: Refusal) {
        let continuation = state.withLock { state -> CheckedContinuation<Refusal?, Never>? in
            switch state.entries[id] {
            case .arriving?:
                state.entries[id] = .ended(refusal)
                return nil
            case .waiting(let key, let continuation)?:
                state.entries[id] = nil
                state.queues[key]?.removeAll { $0 == id }
                return continuation
            case .ended?, nil:
                return nil
            }
        }
        continuation?.resume(returning: refusal)
    }
}
