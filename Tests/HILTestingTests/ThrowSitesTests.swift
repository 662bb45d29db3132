@testable import HILTesting
import Testing

/// A case's failure is located at the test's line that called the step that threw, not at its `@Test` line.
@Suite struct ThrowSitesTests {
    struct StepFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// A step that calls another step, as `readProtected` calls `discover`.
    static func outerStep(_ sites: ThrowSites, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await sites.located(sourceLocation) {
            try await innerStep(sites)
        }
    }

    static func innerStep(_ sites: ThrowSites, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await sites.located(sourceLocation) { throw StepFailed(description: "awaited discovery within 5 s, observed none") }
    }

    @Test func theTestsOwnCallIsKeptForItsError() async throws {
        let sites = ThrowSites()
        var thrown: (any Error)?
        let line = #line + 1
        do { try await Self.outerStep(sites) } catch { thrown = error }
        let error = try #require(thrown)
        let location = try #require(sites.location(of: error))
        #expect(location.hasSuffix("/Tests/HILTestingTests/ThrowSitesTests.swift:\(line)"), "\(location)")
        #expect(location.hasPrefix("/"), "an absolute path, made relative to the package by the results")
    }

    @Test func anErrorNoStepThrewHasNoLocation() async throws {
        let sites = ThrowSites()
        _ = try? await Self.innerStep(sites)
        #expect(sites.location(of: StepFailed(description: "the test's own timeout")) == nil)
        let ok: Int = try await sites.located(#_sourceLocation) { 7 }
        #expect(ok == 7)
    }
}
