import Foundation
import TestSupport
import Testing
@testable import Roles

/// A subset of SecurityInteropBtvirtTests on Rootcanal (Android's emulated 5.3 controller, slower: ~2 s
/// per Secure Connections passkey pairing, whose 20 rounds follow the connection events): passkey SC (and
/// legacy Just Works) pairing both ways, bonds surviving a restart both ways, a lost bond, a wrong
/// passkey, Security Requests answered by pairing and, on reconnects, with the bond.
///
/// Real peers on real time, reachable only inside Rootcanal's network namespace (`.rootcanal`;
/// `RootcanalPeer.available` skips the suite anywhere else). SecureInterop's bounds are on the wall clock
/// and say why they are that wide.
@Suite(.serialized, .tags(.rootcanal), RootcanalPeer.available) struct SecurityInteropRootcanalTests {
    @Test(arguments: [SecureInterop.Case.passkeySC, .justWorksLegacy])
    func ourCentralPairsWithABumbleAccessory(_ pairingCase: SecureInterop.Case) async throws {
        let moniker = try #require(RootcanalPeer.moniker)
        try await RootcanalPeer.withControllers(1) { hosts in
            try await SecureInterop.ourCentralPairs(host: hosts[0], transport: moniker, air: "Rootcanal", pairingCase)
        }
    }

    @Test func bondSurvivesTheAccessorysRestart() async throws {
        let moniker = try #require(RootcanalPeer.moniker)
        try await RootcanalPeer.withControllers(1) { hosts in
            try await SecureInterop.bondSurvivesRestart(host: hosts[0], transport: moniker, air: "Rootcanal", .passkeySC)
        }
    }

    /// Rootcanal 1.10 answers the accessory's LTK Request Negative Reply with Encryption Change 0x05
    /// Authentication Failure at the central, where the spec (Vol 6 Part B §5.1.3.1: LL_REJECT_EXT_IND
    /// with 0x06 PIN or Key Missing) and btvirt give 0x06. So on Rootcanal our error cannot tell a lost
    /// bond from other refusals: it says the encryption did not start, with Rootcanal's status.
    @Test func aLostBondFailsEncryptionAndPairingAgainRecovers() async throws {
        let moniker = try #require(RootcanalPeer.moniker)
        try await RootcanalPeer.withControllers(1) { hosts in
            try await SecureInterop.lostBondIsNamed(host: hosts[0], transport: moniker, air: "Rootcanal", .passkeySC,
                                                    lossStatus: .authenticationFailure,
                                                    lossDescription: ["did not start", "0x05 Authentication Failure"])
        }
    }

    @Test func aWrongPasskeyFailsWithThePeersConfirmValueFailed() async throws {
        let moniker = try #require(RootcanalPeer.moniker)
        try await RootcanalPeer.withControllers(1) { hosts in
            try await SecureInterop.wrongPasskeyFails(host: hosts[0], transport: moniker, air: "Rootcanal", .passkeySC)
        }
    }

    @Test func aBumbleCentralPairsWithOurPeripheral() async throws {
        let moniker = try #require(RootcanalPeer.moniker)
        try await RootcanalPeer.withControllers(1) { hosts in
            try await SecureInterop.bumbleCentralPairsWithUs(host: hosts[0], transport: moniker, air: "Rootcanal", .passkeySC)
        }
    }

    /// Our peripheral's LTK Request Negative Reply reaches the Bumble central as 0x05 on Rootcanal too.
    @Test func aBumbleCentralReconnectsToOurPeripheralWithItsBond() async throws {
        let moniker = try #require(RootcanalPeer.moniker)
        try await RootcanalPeer.withControllers(1) { hosts in
            try await SecureInterop.bumbleCentralReconnectsWithItsBond(host: hosts[0], transport: moniker, air: "Rootcanal", .passkeySC,
                                                                       lossErrors: ["AUTHENTICATION_FAILURE"])
        }
    }

    @Test func aSecurityRequestIsAnsweredByPairing() async throws {
        let moniker = try #require(RootcanalPeer.moniker)
        try await RootcanalPeer.withControllers(1) { hosts in
            try await SecureInterop.securityRequestIsAnsweredByPairing(host: hosts[0], transport: moniker, air: "Rootcanal")
        }
    }

    @Test func encryptRightAfterReconnectingJoinsOurAnswerToTheSecurityRequest() async throws {
        let moniker = try #require(RootcanalPeer.moniker)
        try await RootcanalPeer.withControllers(1) { hosts in
            try await SecureInterop.encryptJoinsOurAnswerToASecurityRequest(host: hosts[0], transport: moniker, air: "Rootcanal", rounds: 4)
        }
    }
}
