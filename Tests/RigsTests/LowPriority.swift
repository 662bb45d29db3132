import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs CPU-bound test work on a thread of its own at the lowest scheduling priority (nice 19), never on
/// the cooperative pool: on a 2-core machine seconds of such work beside the timing tests must neither
/// hold the pool's threads nor take the cores their deadlines need.
func atLowPriority<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let thread = Thread {
            #if canImport(Glibc)
            // On Linux the nice value is per thread, and 0 names the calling one.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            #endif
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        thread.start()
    }
}
