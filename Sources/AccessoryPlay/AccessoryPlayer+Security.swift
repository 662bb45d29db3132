import HCIPackets
import SMP
import Roles

/// The steps about pairing and bonds, and what the player sees of a link's encryption.
extension AccessoryPlayer {
    /// `require_pairing`, `refuse_pairing`, `forget_bond`.
    func security(step index: Int, link: LEConnection?) async {
        let name = plan.steps[index].name
        switch plan.steps[index].action {
        case .requirePairing:
            guard let link, await link.isConnected, let options = await device.pairingOptions else {
                outcomes[index].paired = false
                outcomes[index].pairingNote = link == nil ? "no central was connected to ask" : "the profile has no security: the accessory cannot pair"
                log.record(.security, "\(name): \(outcomes[index].pairingNote ?? "")")
                return
            }
            let started = log.milliseconds()
            log.record(.security, handle: link.handle, "\(name): Security Request sent")
            do {
                let result = try await link.pair(options)
                outcomes[index].paired = true
                outcomes[index].pairingNote = "the central paired: \(result.method), key size \(result.keySize)" + (result.bonded ? ", bonded" : ", not bonded")
            } catch {
                outcomes[index].paired = false
                outcomes[index].pairingNote = "the central did not pair: \(error)"
            }
            outcomes[index].pairingTook = log.milliseconds() - started
            log.record(.security, handle: link.handle, "\(name): \(outcomes[index].pairingNote ?? "")")
        case .refusePairing:
            if var options = await device.pairingOptions {
                options.rejectsWith = .pairingNotSupported
                await device.configureSecurity(pairing: options, bonds: await device.bondStore, identity: await device.identity,
                                               privateAddresses: await device.usesPrivateAddresses)
            }
            log.record(.security, handle: link?.handle, "\(name): pairing requests are answered Pairing Not Supported (0x05) from now on")
        default:
            let peer = link ?? lastLink
            guard let peer else {
                log.record(.security, "\(name): no central has connected: no bond to forget")
                return
            }
            let bond = await device.bond(for: peer.peerAddress, type: peer.peerAddressType)
            if let bond, (try? await device.bondStore?.forget(peer: bond.peerAddress)) == true {
                log.record(.security, handle: link?.handle, "\(name): forgot the bond with \(bond.peerAddress)")
            } else {
                log.record(.security, handle: link?.handle, "\(name): no bond with \(peer.peerAddress) to forget")
            }
        }
    }

    /// A pairing prompt the accessory answered as its profile says — the passkey it displays, the Numeric
    /// Comparison value it confirms — recorded so that a person can match it with what the phone showed.
    func prompted(_ prompt: PairingPrompt, by peer: BDAddress) {
        let handle = lastLink.flatMap { $0.peerAddress == peer ? $0.handle : nil }
        log.record(.security, handle: handle, "pairing with \(peer): \(prompt)")
    }

    /// Records when `link` becomes encrypted — with a bond, or by a pairing — for the report and the
    /// `reencrypt_with_bond` checks.
    func watchEncryption(of link: LEConnection) {
        task { [weak self] in
            guard let security = try? await link.waitForEncryption(timeout: .seconds(7 * 86_400)) else { return }
            let pairedNow = await link.lastPairing != nil
            await self?.encrypted(link, security, pairedNow: pairedNow)
        }
    }

    func encrypted(_ link: LEConnection, _ security: LinkSecurity, pairedNow: Bool) {
        let how = pairedNow ? "by a pairing" : "with the bond"
        let at = log.record(.security, handle: link.handle, "link encrypted \(how): key size \(security.keySize), "
                            + (security.authenticated ? "authenticated" : "unauthenticated"))
        for index in outcomes.indices where outcomes[index].nextConnectionAt != nil && outcomes[index].reencryptedAt == nil
            && outcomes[index].pairedAgainAt == nil {
            guard let connected = outcomes[index].nextConnectionAt, at >= connected else { continue }
            if pairedNow { outcomes[index].pairedAgainAt = at } else { outcomes[index].reencryptedAt = at }
        }
    }
}
