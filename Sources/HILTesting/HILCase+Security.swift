import GATT
import SMP
import Roles
import Rigs
import Testing

extension HILCase {
    /// The accessory's declared security; a bench error for an accessory that declares none (the security
    /// suites run only over `BenchAccessories.securedNames`).
    public func accessorySecurity() throws -> AccessorySecurity {
        guard let security = accessory?.security else { throw BenchError("\(accessory?.name ?? "this test") declares no security") }
        return security
    }

    /// Gives the central the bench's identity (a random static address, the same for the whole run, so
    /// accessories keep their bonds across adapter resets), this case's bond store, and pairing options
    /// that meet the accessory's method.
    public func prepareSecureCentral(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await located(sourceLocation) {
            let options = try accessorySecurity().centralOptions()
            await central.configureSecurity(pairing: options, bonds: bonds, identity: try await Bench.shared.centralIdentity())
        }
    }

    /// Pairs on `link` with the options that meet the accessory's method, within the pairing budget; the
    /// bond (when both sides bond) goes into `bonds`.
    public func pair(_ link: LEConnection, sourceLocation: SourceLocation = #_sourceLocation) async throws -> PairingResult {
        try await located(sourceLocation) {
            let options = try accessorySecurity().centralOptions()
            let budget = rig.budgets.pairing
            let result = try await step(.security) {
                try await link.pair(options, timeout: max(budget, LEConnection.smpTimeout))
            } mark: { result, took in
                measure("pairing", took, budget: budget)
                return "paired: \(result.method), \(result.secureConnections ? "Secure Connections" : "legacy"), \(result.keySize)-octet key"
            }
            // Our keys are the pairing's last PDUs: let the accessory handle them before the case moves on
            // (a disconnect or power-off at once could beat it to storing the bond).
            if !(await link.awaitPeerCaughtUp()) { mark(.security, "no ATT answer within 2 s after pairing") }
            return result
        }
    }

    /// Encrypts `link` with the bond's key (no pairing), within the encryption budget.
    public func encrypt(_ link: LEConnection, with bond: Bond, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await located(sourceLocation) {
            let budget = rig.budgets.encryption
            try await step(.security) {
                try await link.encrypt(with: bond, timeout: max(budget, .seconds(10)))
            } mark: { _, took in
                measure("encryption with the bond", took, budget: budget)
                return "encrypted with the stored LTK (EDIV 0x\(String(bond.longTermKey?.ediv ?? 0, radix: 16)))"
            }
        }
    }

    /// Reads the accessory's protected characteristic: its value, or the ATT error that refused it.
    public func readProtected(_ link: LEConnection, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Result<[UInt8], ATTError> {
        try await located(sourceLocation) {
            let uuid = try accessorySecurity().protectedCharacteristic
            let tree = try await discover(link)
            guard let characteristic = tree.characteristics.first(where: { $0.uuid == uuid }) else {
                throw BenchError("the accessory serves no protected characteristic \(uuid)")
            }
            do throws(ATTError) {
                let value = try await link.gatt.read(handle: characteristic.valueHandle)
                mark(.security, "read protected \(uuid): \(value.count) octet(s)")
                return .success(value)
            } catch {
                mark(.security, "read protected \(uuid) refused: \(error)")
                return .failure(error)
            }
        }
    }
}
