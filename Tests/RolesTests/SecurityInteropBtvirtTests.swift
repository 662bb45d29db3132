import Foundation
import TestSupport
import Testing
@testable import Roles

/// Our SMP against Google's Bumble on btvirt (BlueZ 5.66's emulated controllers): our central pairs with
/// a Bumble accessory that requires security, by every method, keeps and reuses the bond, names a bond
/// the accessory lost, fails a wrong passkey with the peer's reason, answers Security Requests (and a
/// pair() or encrypt(with:) called just as that answer starts joins it); a Bumble central pairs with our
/// peripheral and reconnects with its bond. The scenarios are SecureInterop's; each prints what it measured.
///
/// Real peers on real time (`.peer`): btvirt's controllers and Bumble's Python processes. SecureInterop's
/// bounds are on the wall clock and say why they are that wide.
@Suite(.serialized, .tags(.peer)) struct SecurityInteropBtvirtTests {
    static let transport = "unix:\(BtvirtPeer.lePath)"

    @Test(arguments: [SecureInterop.Case.justWorksSC, .justWorksLegacy, .passkeySC, .passkeyLegacy, .passkeyLegacyOurs, .numericComparison])
    func ourCentralPairsWithABumbleAccessory(_ pairingCase: SecureInterop.Case) async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.ourCentralPairs(host: hosts[0], transport: Self.transport, air: "btvirt", pairingCase)
        }
    }

    @Test func ourCentralPairsByLegacyOOB() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.ourCentralPairsByLegacyOOB(host: hosts[0], transport: Self.transport, air: "btvirt")
        }
    }

    @Test(arguments: [SecureInterop.Case.passkeySC, .passkeyLegacy, .justWorksLegacy])
    func bondSurvivesTheAccessorysRestart(_ pairingCase: SecureInterop.Case) async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.bondSurvivesRestart(host: hosts[0], transport: Self.transport, air: "btvirt", pairingCase)
        }
    }

    /// btvirt 5.66 gives the central the spec's status after the accessory's LTK Request Negative Reply:
    /// Encryption Change 0x06 PIN or Key Missing, which our error names as a lost bond.
    @Test(arguments: [SecureInterop.Case.passkeySC, .passkeyLegacy])
    func aLostBondIsNamedAndPairingAgainRecovers(_ pairingCase: SecureInterop.Case) async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.lostBondIsNamed(host: hosts[0], transport: Self.transport, air: "btvirt", pairingCase,
                                                    lossStatus: .pinOrKeyMissing,
                                                    lossDescription: ["the peer has lost the bond", "0x06 PIN or Key Missing"])
        }
    }

    @Test(arguments: [SecureInterop.Case.passkeySC, .passkeyLegacy])
    func aWrongPasskeyFailsWithThePeersConfirmValueFailed(_ pairingCase: SecureInterop.Case) async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.wrongPasskeyFails(host: hosts[0], transport: Self.transport, air: "btvirt", pairingCase)
        }
    }

    @Test(arguments: [SecureInterop.Case.passkeySC, .passkeyLegacy, .justWorksSC, .numericComparison])
    func aBumbleCentralPairsWithOurPeripheral(_ pairingCase: SecureInterop.Case) async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.bumbleCentralPairsWithUs(host: hosts[0], transport: Self.transport, air: "btvirt", pairingCase)
        }
    }

    /// btvirt gives the Bumble central 0x06 PIN or Key Missing after our LTK Request Negative Reply.
    @Test(arguments: [SecureInterop.Case.passkeySC, .passkeyLegacy])
    func aBumbleCentralReconnectsToOurPeripheralWithItsBond(_ pairingCase: SecureInterop.Case) async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.bumbleCentralReconnectsWithItsBond(host: hosts[0], transport: Self.transport, air: "btvirt", pairingCase,
                                                                       lossErrors: ["PIN_OR_KEY_MISSING_ERROR (0x06)"])
        }
    }

    @Test(arguments: [SecureInterop.Case.passkeySC, .passkeyLegacy])
    func aBumbleCentralWithAWrongPasskeyIsRefusedByOurPeripheral(_ pairingCase: SecureInterop.Case) async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.bumbleCentralWithAWrongPasskeyIsRefused(host: hosts[0], transport: Self.transport, air: "btvirt", pairingCase)
        }
    }

    @Test func aBumbleCentralPairsWithOurPeripheralByLegacyOOB() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.bumbleCentralPairsWithUsByLegacyOOB(host: hosts[0], transport: Self.transport, air: "btvirt")
        }
    }

    @Test func aSecurityRequestIsAnsweredByPairing() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.securityRequestIsAnsweredByPairing(host: hosts[0], transport: Self.transport, air: "btvirt")
        }
    }

    @Test func aSecurityRequestOnABondedReconnectIsAnsweredWithTheBond() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.securityRequestIsAnsweredWithTheBond(host: hosts[0], transport: Self.transport, air: "btvirt")
        }
    }

    @Test func pairRightAfterConnectingJoinsOurAnswerToTheSecurityRequest() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.pairJoinsOurAnswerToASecurityRequest(host: hosts[0], transport: Self.transport, air: "btvirt", rounds: 8)
        }
    }

    @Test func encryptRightAfterReconnectingJoinsOurAnswerToTheSecurityRequest() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.encryptJoinsOurAnswerToASecurityRequest(host: hosts[0], transport: Self.transport, air: "btvirt", rounds: 8)
        }
    }

    @Test func aSecurityRequestToACentralWithoutPairingOptionsIsRefused() async throws {
        try await BtvirtPeer.withControllers(1) { hosts in
            try await SecureInterop.securityRequestWithoutOptionsIsRefused(host: hosts[0], transport: Self.transport, air: "btvirt")
        }
    }
}
