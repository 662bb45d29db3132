import Synchronization

/// What the `.bench` trait holds for one test case while it runs: the case the test opened with
/// `HILCase.open`, if it did, for the trait to finish when the test ends.
final class BenchScope: Sendable {
    @TaskLocal static var current: BenchScope?

    private let session = Mutex<CaseSession?>(nil)
    private let opening = Mutex(false)

    /// Opens the case once, with `begin`; a second open is a `BenchError`.
    func open(_ begin: () async throws -> CaseSession) async throws -> HILCase {
        let first = opening.withLock { opening in
            defer { opening = true }
            return !opening
        }
        guard first else { throw BenchError("this test case opened the bench already (HILCase.open is called once per case)") }
        let opened = try await begin()
        session.withLock { $0 = opened }
        return opened.context
    }

    /// Ends the opened case, if any, after the test returned or threw `thrown`.
    func finish(thrown: (any Error)?) async {
        guard let opened = session.withLock({ $0 }) else { return }
        await opened.finish(thrown: thrown)
    }
}
