// smp: SMP PDUs into a pairing session.
import HCIPackets
import SMP

/// Two pairing sessions (our initiator and our responder) wired together, with the fuzzer between them.
/// Bytes 0-1 pick each side's options (IO capability, legacy or Secure Connections, MITM, bonding, key
/// size, passkey); then for each PDU in flight one byte says what happens to it: delivered as sent, one
/// byte of it changed, replaced by a fuzzed PDU (a length-prefixed chunk), or a fuzzed PDU delivered
/// before it. A session must answer any PDU with a step or an abort, never trap; when both sides finish
/// they must hold the same link key, and the initiator only encrypts with the key the responder answers
/// the LTK request with.
enum SMPTarget {
    static let target = FuzzTarget(name: "smp", summary: "SMP PDUs (real, mutated, fuzzed) into initiator and responder pairing sessions", run: run)

    private static let addresses = PairingAddresses(initiator: BDAddress(0xC1_22_33_44_55_66), initiatorRandom: true,
                                                    responder: BDAddress(0x00_1B_DC_07_32_EF), responderRandom: false)
    private static let identities = [
        LocalIdentity(address: BDAddress(0xC0_AA_BB_CC_DD_01), addressType: .random, identityResolvingKey: Array(0x01...0x10)),
        LocalIdentity(address: BDAddress(0x00_1B_DC_07_32_EF), addressType: .public, identityResolvingKey: Array(0xE1...0xF0)),
    ]

    private static func options(_ byte: UInt8) -> PairingOptions {
        let capabilities: [IOCapability] = [.displayOnly, .displayYesNo, .keyboardOnly, .noInputNoOutput, .keyboardDisplay]
        return PairingOptions(ioCapability: capabilities[Int(byte & 0x07) % capabilities.count], bonding: byte & 0x08 != 0,
                              mitm: byte & 0x10 != 0, secureConnections: byte & 0x20 != 0, passkey: byte & 0x40 != 0 ? 123_456 : nil,
                              minKeySize: byte & 0x80 != 0 ? 16 : 7,
                              keys: byte & 0x08 != 0 ? [.encryptionKey, .identityKey, .signingKey] : [.encryptionKey])
    }

    static func run(_ bytes: [UInt8]) -> Int {
        var input = FuzzInput(bytes)
        let sessions = [
            PairingSession(isInitiator: true, options: options(input.byte()), addresses: addresses, identity: identities[0]),
            PairingSession(isInitiator: false, options: options(input.byte()), addresses: addresses, identity: identities[1]),
        ]
        var queue: [(to: Int, pdu: [UInt8])] = [(1, sessions[0].start().encoded)]
        var results: [Int: PairingResult] = [:]
        var encryptWith: LongTermKey?
        var answerWith: LongTermKey?
        var encrypted = false
        var touched = 0
        var steps = 0
        func take(_ step: PairingStep, from side: Int) {
            queue += step.send.map { (1 - side, $0.encoded) }
            if let key = step.encryptWith {
                Harness.check(side == 0, "the responder asked to start encryption")
                encryptWith = key
            }
            if let key = step.answerLTKRequestWith {
                Harness.check(side == 1, "the initiator asked to answer an LTK request")
                answerWith = key
            }
            if let result = step.finished { results[side] = result }
            touched &+= step.prompts.count
        }
        while !queue.isEmpty, steps < 64 {
            steps += 1
            var (to, pdu) = queue.removeFirst()
            switch input.byte() & 0x03 {
            case 1 where !pdu.isEmpty:
                pdu[input.pick(pdu.count)] ^= input.byte() | 1
            case 2:
                pdu = input.chunk()
            case 3:
                queue.insert((to, pdu), at: 0)
                pdu = input.chunk()
            default:
                break
            }
            let decoded: SMPPDU
            do {
                decoded = try SMPPDU(decoding: pdu)
            } catch {
                touched &+= error.description.count
                continue  // a link answers an undecodable PDU with Pairing Failed; the session never sees it
            }
            do throws(PairingAbort) {
                take(try sessions[to].receive(decoded), from: to)
                if let encryptWith, !encrypted, encryptWith == answerWith {
                    encrypted = true
                    take(try sessions[0].encryptionEnabled(), from: 0)
                    take(try sessions[1].encryptionEnabled(), from: 1)
                }
            } catch {
                touched &+= error.error.description.count
                if let reason = error.send { _ = try? sessions[1 - to].receive(.pairingFailed(reason)) }
                break
            }
        }
        if let initiator = results[0], let responder = results[1] {
            Harness.check(initiator.linkKey == responder.linkKey, "both sides finished with different link keys")
        }
        return touched
    }
}
