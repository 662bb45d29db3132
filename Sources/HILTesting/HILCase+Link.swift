import Rigs
import Roles

extension HILCase {
    /// What the accessory's link layer must reach; a bench error for an accessory that declares no `link`
    /// (the link-layer suites run only over `BenchAccessories.linkNames`).
    public func accessoryLink() throws -> AccessoryLink {
        guard let link = accessory?.link else { throw BenchError("\(accessory?.name ?? "this test") declares no link block") }
        return link
    }

    /// Waits up to `budget` on the case's clock for the link event `match` picks, and records how long it took.
    public func awaitLinkEvent<T: Sendable>(_ link: LEConnection, _ awaited: String, budget: Duration,
                                            _ match: @escaping @Sendable (LinkEvent) -> T?) async throws -> T {
        let started = clock.now
        let value = try await link.waitForLinkEvent(awaited, timeout: budget, match)
        measure(awaited, started.duration(to: clock.now), budget: budget)
        return value
    }
}
