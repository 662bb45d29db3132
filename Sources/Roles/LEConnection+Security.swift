import Support
import HCIPackets
import EventLoops
import HostCore
import GATT
import SMP
// Pairing and encryption on one link.

extension LEConnection {
    /// The SMP timeout (Core v5.4 Vol 3 Part H §3.4).
    public static let smpTimeout: Duration = .seconds(30)

    /// Pairs as central (initiator): Pairing Request, the method's exchange, encryption, key distribution.
    /// As peripheral, sends a Security Request and waits for the central's pairing instead. Bonds go into
    /// the device's bond store when both sides asked for bonding. A pairing already under way on the link
    /// is joined, not doubled: our central's answer to the peer's Security Request (which starts as soon as
    /// the request comes, often just as the caller pairs), or the central's pairing of our peripheral; its
    /// result is returned.
    public func pair(_ options: PairingOptions, timeout: Duration = LEConnection.smpTimeout) async throws(SecurityError) -> PairingResult {
        // Awaited first: from the checks on, nothing suspends until `pairing` is set, so a second call (or
        // our answer to a Security Request) cannot also find no pairing and start another.
        let started = host.loop.now
        let addresses = await pairingAddresses()
        let identity = await device?.identity
        guard isConnected else { throw .disconnected(reason: disconnectionReason ?? .unknownConnectionIdentifier) }
        guard !smpTimedOut else { throw .unsupported("SMP timed out on this link earlier: no more pairing until it reconnects") }
        let waiter = OneShot<Result<PairingResult, SecurityError>>()
        pairingWaiters.append(waiter)
        if pairing != nil {
            // Joined: finishPairing answers every waiter with the pairing's result.
        } else if role == .central {
            let session = PairingSession(isInitiator: true, options: options, addresses: addresses, identity: identity)
            pairing = session
            armSMPTimer(timeout)
            await sendSMP(session.start())
        } else {
            var requirements = options.features(asInitiator: false).authRequirements
            requirements.remove(.ct2)
            securityRequestOptions = options
            armSMPTimer(timeout)
            await sendSMP(.securityRequest(requirements))
        }
        return try await outcome(of: waiter, awaiting: "the end of the pairing", since: started).get()
    }

    /// What `waiter` resolves to; a caller cancelled first resolves it with `cancelled`, naming `awaited` and
    /// the time since `started` on the host's clock.
    func outcome<Value: Sendable>(of waiter: OneShot<Result<Value, SecurityError>>, awaiting awaited: String,
                                  since started: ContinuousClock.Instant) async -> Result<Value, SecurityError> {
        let loop = host.loop
        return await withTaskCancellationHandler {
            await waiter.value
        } onCancel: {
            waiter.resolve(.failure(.host(.cancelled(awaited: awaited, waited: started.duration(to: loop.now)))))
        }
    }

    /// Encrypts the link with a bond's key as central (LE Enable Encryption) and waits for Encryption
    /// Change. A peer that has lost the bond answers with 0x06 PIN or Key Missing, named as such.
    public func encrypt(with bond: Bond, timeout: Duration = .seconds(10)) async throws(SecurityError) {
        guard let key = bond.longTermKey else {
            throw .unsupported("the bond with \(bond.peerAddress) holds no key for this side as central (a legacy pairing whose peer distributed no LTK)")
        }
        try await encrypt(with: key, giving: bond.security, timeout: timeout)
    }

    /// LE Enable Encryption with `key`; the link's security becomes `security` once Encryption Change
    /// (or Encryption Key Refresh Complete) reports success. An encryption already under way (our answer
    /// to the peer's Security Request, with the bond, starts as soon as the request comes, often just as
    /// the caller encrypts) is waited for first: when it gave the link `security`, that is this one's
    /// result; otherwise this one starts.
    public func encrypt(with key: LongTermKey, giving security: LinkSecurity, timeout: Duration = .seconds(10)) async throws(SecurityError) {
        guard role == .central else { throw .unsupported("only the central starts encryption (LE Enable Encryption)") }
        let started = host.loop.now
        if encryptionWaiter != nil {
            while encryptionWaiter != nil {
                guard isConnected else { throw .disconnected(reason: disconnectionReason ?? .unknownConnectionIdentifier) }
                guard await securityChange(before: started.advanced(by: timeout)) else {
                    if Task.isCancelled { throw .host(.cancelled(awaited: "the encryption under way", waited: started.duration(to: host.loop.now))) }
                    throw .timeout(awaited: "end of the encryption under way on handle 0x\(hex4(handle))", timeout: timeout)
                }
            }
            if self.security == security { return }
        }
        guard isConnected else { throw .disconnected(reason: disconnectionReason ?? .unknownConnectionIdentifier) }
        let waiter = OneShot<Result<Void, SecurityError>>()
        encryptionWaiter = waiter
        pendingSecurity = security
        let timer = host.loop.schedule(at: started.advanced(by: timeout)) {
            waiter.resolve(.failure(.timeout(awaited: "Encryption Change for handle 0x\(hex4(self.handle))", timeout: timeout)))
        }
        do {
            try await host.send(LEEnableEncryption(handle: handle, random: key.random, ediv: key.ediv, longTermKey: key.key))
        } catch {
            waiter.resolve(.failure(.host(error)))
        }
        let result = await outcome(of: waiter, awaiting: "Encryption Change", since: started)
        host.loop.cancelTimer(timer)
        if encryptionWaiter === waiter {
            encryptionWaiter = nil
            securityChanged()
        }
        try result.get()
    }

    /// Waits until the link is encrypted (by a pairing the peer started, or its encryption), within `timeout`.
    public func waitForEncryption(timeout: Duration) async throws(SecurityError) -> LinkSecurity {
        let started = host.loop.now
        while !security.encrypted {
            guard isConnected else { throw .disconnected(reason: disconnectionReason ?? .unknownConnectionIdentifier) }
            guard await securityChange(before: started.advanced(by: timeout)) else {
                if Task.isCancelled { throw .host(.cancelled(awaited: "encryption", waited: started.duration(to: host.loop.now))) }
                throw .timeout(awaited: "encryption of handle 0x\(hex4(handle))", timeout: timeout)
            }
        }
        return security
    }

    /// Waits for the next change of the link's security (Encryption Change, Key Refresh, an encryption
    /// ending, the link ending); false at `deadline` or when the task is cancelled.
    func securityChange(before deadline: ContinuousClock.Instant) async -> Bool {
        guard host.loop.now < deadline, !Task.isCancelled else { return false }
        let change = OneShot<Bool>()
        securityWatchers.append(change)
        let changed = await host.loop.value(of: change, until: deadline, orElse: false)
        securityWatchers.removeAll { $0 === change }
        return changed
    }

    /// Wakes everyone waiting in `securityChange(before:)`.
    func securityChanged() {
        let watchers = securityWatchers
        securityWatchers.removeAll()
        for watcher in watchers { watcher.resolve(true) }
    }

    /// Each side's over-the-air address, as the pairing's confirm values and checks include them.
    func pairingAddresses() async -> PairingAddresses {
        let own = await device?.ownAddress() ?? (BDAddress.zero, false)
        let peer = (peerAddress, peerAddressType.isRandom)
        return role == .central
            ? PairingAddresses(initiator: own.0, initiatorRandom: own.1, responder: peer.0, responderRandom: peer.1)
            : PairingAddresses(initiator: peer.0, initiatorRandom: peer.1, responder: own.0, responderRandom: own.1)
    }

    func sendSMP(_ pdu: SMPPDU) async {
        do {
            try await send(channel: L2CAPChannelID.smp, pdu.encoded)
        } catch {
            note("SMP \(pdu.code) not sent: \(error)")
        }
    }

    func armSMPTimer(_ timeout: Duration = LEConnection.smpTimeout) {
        if let smpTimer { host.loop.cancelTimer(smpTimer) }
        smpTimer = host.loop.schedule(at: host.loop.now.advanced(by: timeout)) { [weak self] in
            guard let self else { return }
            self.assumeIsolated { $0.smpTimerFired(timeout) }
        }
    }

    func smpTimerFired(_ timeout: Duration) {
        smpTimer = nil
        smpTimedOut = true
        let awaited = pairing?.awaited ?? "Pairing Request after our Security Request"
        finishPairing(.failure(.timeout(awaited: awaited, timeout: timeout)))
    }

    /// Ends the pairing (if any) and answers every waiter.
    func finishPairing(_ result: Result<PairingResult, SecurityError>) {
        if let smpTimer { host.loop.cancelTimer(smpTimer) }
        smpTimer = nil
        let wasResponder = pairing.map { !$0.isInitiator } ?? false
        pairing = nil
        if case .success(let pairing) = result { lastPairing = pairing }
        let waiters = pairingWaiters
        pairingWaiters.removeAll()
        for waiter in waiters { waiter.resolve(result) }
        device?.assumeIsolated { $0.pairingEnded(on: self, result: result, asResponder: wasResponder) }
    }

    /// One PDU on the SMP channel.
    func receivedSMP(_ payload: [UInt8]) async {
        guard !smpTimedOut else { return note("SMP PDU after the SMP timeout: ignored (Vol 3 Part H §3.4)") }
        let pdu: SMPPDU
        do {
            pdu = try SMPPDU(decoding: payload)
        } catch {
            await violated(ProtocolViolation(.smp, "PDU does not decode: \(error)", bytes: payload))
            if pairing != nil || error.unknownCode != nil { await abortPairing(PairingAbort.ours(error.reason, error.description)) }
            return
        }
        switch pdu {
        case .pairingRequest where pairing == nil && role == .peripheral:
            await startResponding(to: pdu)
        case .securityRequest(let requirements) where role == .central:
            securityRequested = requirements
            if pairing == nil { await answerSecurityRequest() }
        case .pairingFailed where pairing == nil:
            if !pairingWaiters.isEmpty {
                await step(with: pdu)
            } else {
                note("Pairing Failed with no pairing under way")
            }
        default:
            guard pairing != nil else {
                await violated(ProtocolViolation(.smp, "\(pdu.code) with no pairing under way"
                    + (pdu.code == .pairingRequest ? " (a Pairing Request to the central)" : " (out of order: no Pairing Request came before it)"), bytes: payload))
                return await sendSMP(.pairingFailed(pdu.code == .pairingRequest ? .pairingNotSupported : .unspecifiedReason))
            }
            await step(with: pdu)
        }
    }

    /// Feeds one PDU to the pairing and does what it asks.
    func step(with pdu: SMPPDU) async {
        guard let pairing else {
            if case .pairingFailed(let reason) = pdu {
                finishPairing(.failure(.pairingFailed(reason: reason, byPeer: true, detail: "in answer to our Security Request")))
            }
            return
        }
        do {
            armSMPTimer()
            try await perform(pairing.receive(pdu))
        } catch {
            await abortPairing(error)
        }
    }

    func abortPairing(_ abort: PairingAbort) async {
        if let reason = abort.send { await sendSMP(.pairingFailed(reason)) }
        finishPairing(.failure(abort.error))
    }

    func perform(_ step: PairingStep) async throws(PairingAbort) {
        for prompt in step.prompts { await device?.report(prompt, on: self) }
        for pdu in step.send { await sendSMP(pdu) }
        if let key = step.encryptWith, let pairing {
            pendingSecurity = LinkSecurity(encrypted: true, authenticated: pairing.method.isAuthenticated,
                                           secureConnections: pairing.secureConnections, keySize: pairing.keySize)
            do {
                try await host.send(LEEnableEncryption(handle: handle, random: key.random, ediv: key.ediv, longTermKey: key.key))
            } catch {
                throw PairingAbort(send: .unspecifiedReason, error: .host(error))
            }
        }
        if let result = step.finished {
            if let pairing, pairing.isInitiator, !step.send.isEmpty {
                // The initiator's keys are the pairing's last PDUs: a caller that resets or powers off the
                // adapter as soon as pair() returns must not keep them from the peer.
                if !(await host.waitUntilACLCompleted(handle: handle, timeout: .seconds(2))) {
                    note("our distributed keys were not reported sent (Number Of Completed Packets) within 2 s")
                }
            }
            if let unkept = await device?.pairingSucceeded(result, on: self) {
                finishPairing(.failure(unkept))
            } else {
                finishPairing(.success(result))
            }
        }
    }

    /// A Pairing Request to our peripheral: answer it with the device's options, or refuse it.
    func startResponding(to request: SMPPDU) async {
        guard let device, let options = await securityRequestOptionsOrDevice(device) else {
            return await sendSMP(.pairingFailed(.pairingNotSupported))
        }
        if await device.refusesRepeatedAttempt(from: peerAddress) {
            return await sendSMP(.pairingFailed(.repeatedAttempts))
        }
        let session = PairingSession(isInitiator: false, options: options, addresses: await pairingAddresses(), identity: await device.identity)
        pairing = session
        await step(with: request)
    }

    /// A Security Request to our central: encrypt with the bond if there is one, otherwise pair with the
    /// device's options, otherwise Pairing Not Supported (§2.4.6).
    func answerSecurityRequest() async {
        guard let device else { return }
        if let bond = await device.bond(for: peerAddress, type: peerAddressType), bond.longTermKey != nil {
            Task(executorPreference: host.loop) { try? await self.encrypt(with: bond) }
        } else if let options = await device.pairingOptions {
            Task(executorPreference: host.loop) { _ = try? await self.pair(options) }
        } else {
            await sendSMP(.pairingFailed(.pairingNotSupported))
        }
    }

    /// Encryption Change or Encryption Key Refresh Complete for this link.
    func encryptionChanged(status: HCIStatus, enabled: Bool) async {
        if status == .success && enabled {
            security = pendingSecurity ?? LinkSecurity(encrypted: true, keySize: 16)
            pendingSecurity = nil
            setATTSecurity(security)
            encryptionWaiter?.resolve(.success(()))
            securityChanged()
            if let pairing, pairing.phase == .encrypting {
                do {
                    try await perform(pairing.encryptionEnabled())
                } catch {
                    await abortPairing(error)
                }
            }
        } else {
            if !enabled { security = LinkSecurity() ; setATTSecurity(security) }
            pendingSecurity = nil
            let detail = status == .pinOrKeyMissing ? "the peer has lost the bond" : "encryption of handle 0x\(hex4(handle)) did not start"
            encryptionWaiter?.resolve(.failure(.encryptionFailed(status: status, detail: detail)))
            securityChanged()
            if pairing != nil { finishPairing(.failure(.encryptionFailed(status: status, detail: "encryption with the pairing's key failed"))) }
        }
    }

    /// The controller asks for the LTK the central named (LE Long Term Key Request): the pairing's key,
    /// else a bond's, else Negative Reply.
    func longTermKeyRequested(ediv: UInt16, random: UInt64) async {
        var answer: (LongTermKey, LinkSecurity)?
        if let pairing, pairing.phase == .encrypting, let key = pairing.encryptionKey, ediv == 0, random == 0 {
            answer = (key, LinkSecurity(encrypted: true, authenticated: pairing.method.isAuthenticated,
                                        secureConnections: pairing.secureConnections, keySize: pairing.keySize))
        } else if let bond = await device?.bond(for: peerAddress, type: peerAddressType, ediv: ediv, random: random),
                  let key = bond.localLongTermKey {
            answer = (key, bond.security)
        }
        if let (_, security) = answer {
            pendingSecurity = security
        } else {
            note("LTK request (EDIV 0x\(hex4(ediv))) with no key for \(peerAddress): Negative Reply")
        }
        // The link's own task, not awaited here: the reply may wait for a credit (behind a Command Complete that
        // granted 0) up to its deadline, and the link's PDUs and its end must not wait with it (awaited inline it
        // outlived the link: hci-fuzz `host`). A newer request or the link's end cancels it.
        longTermKeyAnswer?.cancel()
        let host = host, handle = handle, key = answer?.0.key
        longTermKeyAnswer = Task(executorPreference: host.loop) { [weak self] in
            do {
                if let key {
                    _ = try await host.send(LELongTermKeyRequestReply(handle: handle, longTermKey: key))
                } else {
                    _ = try await host.send(LELongTermKeyRequestNegativeReply(handle: handle))
                }
            } catch {
                await self?.note("LTK request not answered: \(error)")
            }
        }
    }

    func setATTSecurity(_ security: LinkSecurity) {
        var att: ATTSecurity = []
        if security.encrypted { att.insert(.encrypted) }
        if security.authenticated { att.insert(.authenticated) }
        if security.keySize == 16 { att.insert(.fullKeySize) }
        attServer?.security.subtract([.encrypted, .authenticated, .fullKeySize])
        attServer?.security.formUnion(att)
    }

    /// The link ended: every security wait ends with the reason.
    func securityEnded(reason: HCIStatus) {
        encryptionWaiter?.resolve(.failure(.disconnected(reason: reason)))
        encryptionWaiter = nil
        securityChanged()
        if pairing != nil || !pairingWaiters.isEmpty { finishPairing(.failure(.disconnected(reason: reason))) }
    }
}

extension LEConnection {
    func securityRequestOptionsOrDevice(_ device: LEDevice) async -> PairingOptions? {
        if let securityRequestOptions { return securityRequestOptions }
        return await device.pairingOptions
    }
}

extension LEConnection {
    /// Waits until the peer's host has handled everything we sent before now, with one ATT round trip it
    /// must answer in order (Read By Type for Device Name, 0x2A00, which every GATT server holds; an Error
    /// Response counts too). After a pairing the initiator's keys are the last PDUs: a caller that
    /// disconnects or powers the peer off at once can otherwise beat the peer to storing the bond (Rootcanal
    /// hands a peripheral its Encryption Change after the central's keys have gone out). False when no
    /// answer came within `timeout`.
    public func awaitPeerCaughtUp(timeout: Duration = .seconds(2)) async -> Bool {
        let answered = OneShot<Bool>()
        let timer = host.loop.schedule(at: host.loop.now.advanced(by: timeout)) { answered.resolve(false) }
        let gatt = gatt
        let request = Task(executorPreference: host.loop) {
            do throws(ATTError) {
                _ = try await gatt.read(uuid: BluetoothUUID(UInt16(0x2A00)))
                answered.resolve(true)
            } catch {
                answered.resolve(error.errorCode != nil)
            }
        }
        let result = await answered.value
        host.loop.cancelTimer(timer)
        if !result { request.cancel() }
        return result
    }
}
