import Rigs
import Testing

/// `.bench`: leases the bench named by `HIL_RIG` for a test or a suite (the rig lock, the simulated
/// runtime, the power switches) before it runs, and cancels it with the cause once the bench has broken.
///
/// Around each test case it is a scope (`TestScoping`): the case runs as a drive of the bench's clock (virtual
/// time on a simulated bench), and a case the test opened with `HILCase.open` is ended when the test returns
/// or throws — its verdict classified, its record written and attached — so the body needs no `HILCase.run`.
public struct BenchTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        _ = try await Bench.shared.lease()
        if testCase != nil || !test.isSuite, let reason = await Bench.shared.brokenReason {
            try Test.cancel("bench broke earlier: \(reason)")
        }
        guard testCase != nil, BenchScope.current == nil else {
            try await function()
            return
        }
        let scope = BenchScope()
        try await Bench.shared.clock.drive { () async throws -> Void in
            try await BenchScope.$current.withValue(scope) {
                var thrown: (any Error)?
                do {
                    try await function()
                } catch {
                    thrown = error
                }
                await scope.finish(thrown: thrown)
                if let thrown { throw thrown }
            }
        }
    }
}

extension Trait where Self == BenchTrait {
    /// Leases the bench for this test or suite.
    public static var bench: BenchTrait { BenchTrait() }
}

extension Trait where Self == ConditionTrait {
    /// Runs only when the rig has a power switch for the accessory argument's… any accessory; otherwise
    /// skipped with that reason.
    public static var requiresPowerSwitch: ConditionTrait {
        .enabled("the rig has no power switch for its accessories") {
            guard let rig = try? await Bench.shared.lease() else { return true } // the test reports the rig error
            for accessory in rig.accessories where await Bench.shared.powerPort(for: accessory.name) != nil { return true }
            return false
        }
    }

    /// Runs only when the rig's controller reports a lost peer (btvirt never does).
    public static var requiresLinkLossReports: ConditionTrait {
        .enabled("the rig's controller never reports a lost peer (reportsLinkLoss is false: btvirt has no supervision timeout model)") {
            guard let rig = try? await Bench.shared.lease() else { return true }
            return rig.reportsLinkLoss
        }
    }

    /// Runs only when an accessory learns of the central's Reset (Rootcanal 1.10 never tells the peer).
    public static var requiresPeerSeeingAdapterReset: ConditionTrait {
        .enabled("the rig's accessories never learn of the adapter's Reset (peerSeesAdapterReset is false)") {
            guard let rig = try? await Bench.shared.lease() else { return true }
            return rig.peerSeesAdapterReset
        }
    }

    /// Runs only when the rig names a switch port that powers the adapter.
    public static var requiresAdapterPowerSwitch: ConditionTrait {
        .enabled("the rig names no switch for the adapter's power (adapter.power)") {
            guard (try? await Bench.shared.lease()) != nil else { return true }
            return await Bench.shared.adapterPowerPort != nil
        }
    }

    /// Runs only when the adapter can be USB-reset.
    public static var requiresAdapterUSBReset: ConditionTrait {
        .enabled("the rig's adapter cannot be USB-reset from the suites") {
            guard (try? await Bench.shared.lease()) != nil else { return true }
            return await Bench.shared.canResetAdapterUSB
        }
    }

    /// Runs only when an accessory of the rig misbehaves on purpose (a rig accessory's `"malicious": true`).
    public static var requiresMaliciousAccessory: ConditionTrait {
        .enabled("no accessory of the rig misbehaves on purpose (a rig accessory's \"malicious\": true)") {
            guard let rig = try? await Bench.shared.lease() else { return true }
            return rig.accessories.contains { $0.malicious }
        }
    }

    /// Runs only when an accessory of the rig declares security (`security` with its pairing method).
    public static var requiresSecuredAccessory: ConditionTrait {
        .enabled("no accessory of the rig declares security (a rig accessory's \"security\" block)") {
            guard let rig = try? await Bench.shared.lease() else { return true }
            return rig.accessories.contains { $0.security != nil }
        }
    }

    /// Runs only when an accessory of the rig has a meter (`meter`) and the energy budget `declares` looks for;
    /// `what` names it in the skip's reason.
    public static func requiresEnergyBudget(_ what: String, _ declares: @escaping @Sendable (AccessoryEnergy) -> Bool) -> ConditionTrait {
        .enabled("no accessory of the rig has a meter and an energy.\(what) budget (a rig accessory's \"meter\" and \"energy\")") {
            guard let rig = try? await Bench.shared.lease() else { return true }
            return rig.accessories.contains { $0.meter != nil && ($0.energy.map(declares) ?? false) }
        }
    }

    /// Runs only when an accessory of the rig declares the part of `link` that `declares` looks for;
    /// `what` names it in the skip's reason.
    public static func requiresLink(_ what: String, _ declares: @escaping @Sendable (AccessoryLink) -> Bool) -> ConditionTrait {
        .enabled("no accessory of the rig declares \(what) (a rig accessory's \"link\" block)") {
            guard let rig = try? await Bench.shared.lease() else { return true }
            return rig.accessories.contains { $0.link.map(declares) ?? false }
        }
    }
}
