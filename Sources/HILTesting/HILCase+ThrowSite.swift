import Synchronization
import Testing

extension HILCase {
    /// Runs one of the case's steps for a test that called it at `sourceLocation` (`ThrowSites.located`).
    func located<T>(_ sourceLocation: SourceLocation, _ body: () async throws -> T) async throws -> T {
        try await throwSites.located(sourceLocation, body)
    }
}

/// Where a case's steps threw: an error a step throws is remembered with the test's line that called the
/// step, so the record, junit.xml and the CI line name that line rather than the `@Test` line (Swift gives a
/// thrown error no location of its own).
final class ThrowSites: Sendable {
    private let last = Mutex<(location: SourceLocation, error: String)?>(nil)

    /// Runs `body`, called from `sourceLocation`; remembers that place for the error it throws. Where steps
    /// nest (`readProtected` discovers), the outermost call — the test's own — is kept, as it is the last to see
    /// the error.
    func located<T>(_ sourceLocation: SourceLocation, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            last.withLock { $0 = (sourceLocation, "\(error)") }
            throw error
        }
    }

    /// `/path/File.swift:42` of the call whose step threw `error`; nil when no step threw it.
    func location(of error: any Error) -> String? {
        guard let site = last.withLock({ $0 }), site.error == "\(error)" else { return nil }
        return "\(site.location.filePath):\(site.location.line)"
    }
}
