import Foundation
import Rigs

/// The rig's accessory names, read synchronously at test discovery so suites can be parameterized over
/// them: `@Test(arguments: BenchAccessories.names)`.
public enum BenchAccessories {
    /// rigs/simulated.json of this package, found from this file's location (for `swift test` runs).
    static let packageRigPath: String? = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("rigs/simulated.json").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()

    /// Every accessory of the rig; a rig that cannot be read yields one name that makes the test fail
    /// with the rig's error rather than pass with no cases.
    public static let names: [String] = {
        guard let path = Bench.rigPath else { return ["(no rig: set HIL_RIG)"] }
        do {
            return try Rig.load(path: path).accessories.map(\.name)
        } catch {
            return ["(rig error: \(error))"]
        }
    }()

    /// The accessories that declare security (a rig accessory's `security`), for the security suites;
    /// none on a rig without them (the suites are then skipped with that reason).
    /// The accessories with a meter and energy budgets (`meter` and `energy`).
    public static let meteredNames: [String] = {
        guard let path = Bench.rigPath else { return ["(no rig: set HIL_RIG)"] }
        do {
            return try Rig.load(path: path).accessories.filter { $0.meter != nil && $0.energy != nil }.map(\.name)
        } catch {
            return ["(rig error: \(error))"]
        }
    }()

    public static let securedNames: [String] = {
        guard let path = Bench.rigPath else { return ["(no rig: set HIL_RIG)"] }
        do {
            return try Rig.load(path: path).accessories.filter { $0.security != nil }.map(\.name)
        } catch {
            return ["(rig error: \(error))"]
        }
    }()

    /// The accessories whose `link` block declares what `declares` looks for, for the link-layer suites;
    /// none on a rig without them (the suites are then skipped with that reason).
    public static func linkNames(_ declares: (AccessoryLink) -> Bool) -> [String] {
        guard let path = Bench.rigPath else { return ["(no rig: set HIL_RIG)"] }
        do {
            return try Rig.load(path: path).accessories.filter { $0.link.map(declares) ?? false }.map(\.name)
        } catch {
            return ["(rig error: \(error))"]
        }
    }
}
