import EventLoops
import Rigs

extension HILCase {
    /// Runs the standard bench procedure around `body` for one accessory (or none): `CaseSession` opens the
    /// case, the body runs, and the session classifies what it threw and writes the record.
    ///
    /// On a simulated bench on virtual time the whole case runs as a drive of its clock: whenever every
    /// part of the bench waits, time jumps to the next event. (Under the `.bench` trait, the trait already
    /// drives the clock around the test.)
    public static func run(accessory name: String?, _ body: @Sendable (HILCase) async throws -> Void) async throws {
        let bench = Bench.shared
        let rig = try await bench.lease()
        let clock = await bench.clock
        if BenchScope.current != nil {
            try await runOpened(rig: rig, accessory: name, clock: clock, body)
        } else {
            try await clock.drive { () async throws -> Void in try await runOpened(rig: rig, accessory: name, clock: clock, body) }
        }
    }

    private static func runOpened(rig: Rig, accessory name: String?, clock: LoopClock, _ body: @Sendable (HILCase) async throws -> Void) async throws {
        let session = try await CaseSession.begin(rig: rig, accessory: name, clock: clock)
        var thrown: (any Error)?
        do {
            try await body(session.context)
        } catch {
            thrown = error
        }
        await session.finish(thrown: thrown)
        if let thrown { throw thrown }
    }

    /// Opens this test case on the bench for `accessory` (a rig accessory's name, or none) and returns it,
    /// for a test that carries the `.bench` trait and does not wrap its body in `HILCase.run`:
    ///
    /// ```swift
    /// @Test(.bench, arguments: BenchAccessories.poweredNames)
    /// func survivesPowerCut(accessory: String) async throws {
    ///     let bench = try await HILCase.open(accessory: accessory)
    ///     …
    /// }
    /// ```
    ///
    /// The trait ends the case when the test returns or throws: it classifies the error, writes the record
    /// and attaches it. Throws a `BenchError` without the trait, or when the case was opened already.
    public static func open(accessory name: String?) async throws -> HILCase {
        guard let scope = BenchScope.current else {
            throw BenchError("HILCase.open needs the .bench trait on the test (or wrap the body in HILCase.run)")
        }
        let rig = try await Bench.shared.lease()
        let clock = await Bench.shared.clock
        return try await scope.open { try await CaseSession.begin(rig: rig, accessory: name, clock: clock) }
    }
}
