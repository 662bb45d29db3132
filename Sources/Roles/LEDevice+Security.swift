import HCIPackets
import HostCore
import SMP
// The device's side of security: its pairing options, identity, bonds and pairing events.

/// What happens in pairings on a device's links, for a command or a test to report.
public enum PairingEvent: Sendable {
    /// The method asks a person something; the harness answered it from the options.
    case prompt(PairingPrompt, peer: BDAddress)
    case paired(PairingResult, peer: BDAddress)
    case failed(SecurityError, peer: BDAddress)
}

extension LEDevice {
    /// Sets how this device pairs, where it keeps bonds and the identity it distributes. A random static
    /// identity address becomes the address it connects and advertises with.
    /// With `privateAddresses`, it advertises and connects with a fresh resolvable private address each
    /// time (Core v5.4 Vol 6 Part B §1.3.2.2), made from the identity's IRK.
    public func configureSecurity(pairing: PairingOptions?, bonds: (any BondStorage)?, identity: LocalIdentity?,
                                  privateAddresses: Bool = false) {
        pairingOptions = pairing
        bondStore = bonds
        self.identity = identity
        usesPrivateAddresses = privateAddresses && identity != nil
        privateAddress = nil
    }

    /// The address this device uses on the air and whether it is random: its random static identity, else the
    /// host's random static address standing in for a public address it cannot trust
    /// (`HCIHost.staticRandomAddress`), else the controller's public address.
    public func ownAddress() async -> (BDAddress, Bool) {
        if usesPrivateAddresses, let privateAddress { return (privateAddress, true) }
        if let identity, identity.addressType.isRandom { return (identity.address, true) }
        if let substitute = host.staticRandomAddress { return (substitute, true) }
        return (await host.controllerInfo?.address ?? .zero, false)
    }

    /// Sets the controller's random address to our random static identity, before connecting or advertising
    /// with it (LE Set Random Address is refused while advertising, scanning or initiating).
    func applyIdentityAddress() async throws(HCIError) -> AddressType {
        guard let random = nextRandomAddress() else { return .public }
        try await host.send(LESetRandomAddress(random))
        return .random
    }

    /// The own address type of a scan: only an active scan sends our address (in SCAN_REQ); it uses the host's
    /// stand-in for an untrusted public address when there is one and nothing else of ours is on the air.
    /// Otherwise the public address, as before: a scan never sets our identity's address.
    func scanAddressType(active: Bool) async throws(HCIError) -> AddressType {
        guard active, let substitute = host.staticRandomAddress, identity?.addressType.isRandom != true,
              advertising == nil else { return .public }
        try await host.send(LESetRandomAddress(substitute))
        return .random
    }

    /// The random address to use next: a fresh resolvable private address (kept as `privateAddress`), our
    /// random static identity, the host's stand-in for an untrusted public address, or nil for the
    /// controller's public address.
    func nextRandomAddress() -> BDAddress? {
        if usesPrivateAddresses, let identity, let address = try? ResolvablePrivateAddress.generate(with: identity.identityResolvingKey) {
            privateAddress = address
            return address
        }
        guard let identity, identity.addressType.isRandom else { return host.staticRandomAddress }
        return identity.address
    }

    /// The bond with the peer at `address` (its identity, or a private address its IRK resolves); with EDIV
    /// and Rand not zero, the legacy bond whose distributed LTK they identify.
    public func bond(for address: BDAddress, type: AddressType, ediv: UInt16 = 0, random: UInt64 = 0) async -> Bond? {
        guard let bondStore else { return nil }
        let bonds = await bondStore.bonds()
        if ediv != 0 || random != 0 {
            return bonds.first { $0.localLongTermKey?.ediv == ediv && $0.localLongTermKey?.random == random && !$0.secureConnections }
        }
        return bonds.first { $0.matches(address: address, type: type) }
    }

    /// Pairing events on this device's links from now on.
    public func pairingEvents() -> AsyncStream<PairingEvent> {
        pairingObservers.stream(removingOn: host.loop) { [weak self] id in await self?.removePairingObserver(id) }
    }

    func removePairingObserver(_ id: UInt64) { pairingObservers.remove(id) }

    func publish(_ event: PairingEvent) {
        pairingObservers.yield(event)
    }

    func report(_ prompt: PairingPrompt, on connection: LEConnection) {
        publish(.prompt(prompt, peer: connection.peerAddress))
    }

    /// A pairing succeeded: keep the bond (replacing an older one with the same peer) before anyone hears of
    /// it. A bond the store could not keep is the pairing's failure, returned to end it with: the keys
    /// were exchanged, but this side will not have them on the next connection.
    func pairingSucceeded(_ result: PairingResult, on connection: LEConnection) async -> SecurityError? {
        pairingFailures[connection.peerAddress] = nil
        guard result.bonded, let bondStore else { return nil }
        do {
            try await bondStore.save(result.bond)
            return nil
        } catch {
            await connection.note("bond with \(result.bond.peerAddress) not stored: \(error)")
            return error
        }
    }

    func pairingEnded(on connection: LEConnection, result: Result<PairingResult, SecurityError>, asResponder: Bool) {
        switch result {
        case .success(let pairing):
            publish(.paired(pairing, peer: connection.peerAddress))
        case .failure(let error):
            if asResponder, case .pairingFailed = error {
                let previous = pairingFailures[connection.peerAddress]?.count ?? 0
                pairingFailures[connection.peerAddress] = (previous + 1, clock.now)
            }
            publish(.failed(error, peer: connection.peerAddress))
        }
    }

    /// Whether a Pairing Request from `peer` comes too soon after its failed ones (Repeated Attempts,
    /// Vol 3 Part H §2.3.6): the wait doubles with each failure, from 1 s up to 64 s.
    func refusesRepeatedAttempt(from peer: BDAddress) -> Bool {
        guard let failures = pairingFailures[peer] else { return false }
        let wait = Duration.seconds(1 << min(failures.count - 1, 6))
        return failures.last.duration(to: clock.now) < wait
    }
}
