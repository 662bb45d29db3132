import SMP
@testable import HILTesting
import Testing

/// A case whose bond the bond store could not keep failed on the bench, not in the accessory: its verdict
/// is an infrastructure error, as a dead adapter's is; a pairing the accessory refused stays a product failure.
@Suite struct BondStoreVerdictTests {
    @Test func aBondStoreFailureIsTheBenchs() {
        let failure = BondStoreError(.writeFailed, path: "/srv/bonds/usb_0.json.tmp",
                                     "cannot write /srv/bonds/usb_0.json.tmp: No space left on device")
        #expect(HILCase.isInfrastructure(SecurityError.bondStore(failure)))
        let timedOut = BondStoreError(.lockTimedOut, path: "/srv/bonds/usb_0.json.lock", "gave up waiting for the lock")
        #expect(HILCase.isInfrastructure(SecurityError.bondStore(timedOut)))
    }

    @Test func aRefusedPairingIsTheProducts() {
        #expect(!HILCase.isInfrastructure(SecurityError.pairingFailed(reason: .confirmValueFailed, byPeer: true, detail: "")))
    }
}
