@testable import SMP
import Testing

/// The pairing method two Pairing Request/Response PDUs select, against Core v5.4 Vol 3 Part H
/// §2.3.5.1: Table 2.6 (legacy: OOB when both have OOB data, else IO capabilities when either asks for
/// MITM, else Just Works), Table 2.7 (Secure Connections: OOB when either has it) and Table 2.8.
@Suite("Pairing method selection (§2.3.5.1)")
struct PairingMethodTests {
    /// Table 2.8's column (initiator) and row (responder) order.
    static let order: [IOCapability] = [.displayOnly, .displayYesNo, .keyboardOnly, .noInputNoOutput, .keyboardDisplay]

    /// Table 2.8, transcribed cell by cell from the spec. Rows are the responder's IO capability, columns
    /// the initiator's, both in `order`. JW: Just Works. RD: Passkey Entry, responder displays, initiator
    /// inputs. ID: Passkey Entry, initiator displays, responder inputs. BI: Passkey Entry, initiator and
    /// responder input. NC: Numeric Comparison. A cell that differs reads "legacy/secure connections".
    static let table28: [[String]] = [
        /* DisplayOnly     */ ["JW", "JW", "RD", "JW", "RD"],
        /* DisplayYesNo    */ ["JW", "JW/NC", "RD", "JW", "RD/NC"],
        /* KeyboardOnly    */ ["ID", "ID", "BI", "JW", "ID"],
        /* NoInputNoOutput */ ["JW", "JW", "JW", "JW", "JW"],
        /* KeyboardDisplay */ ["ID", "ID/NC", "RD", "JW", "ID/NC"],
    ]

    static func method(_ cell: String, secureConnections: Bool) -> PairingMethod? {
        let parts = cell.split(separator: "/")
        switch parts.count == 2 && secureConnections ? parts[1] : parts[0] {
        case "JW": return .justWorks
        case "RD": return .passkeyEntry(.responderDisplays)
        case "ID": return .passkeyEntry(.initiatorDisplays)
        case "BI": return .passkeyEntry(.bothInput)
        case "NC": return .numericComparison
        default: return nil
        }
    }

    static func features(_ io: IOCapability, mitm: Bool, oob: Bool = false, sc: Bool) -> PairingFeatures {
        var requirements: AuthenticationRequirements = [.bonding]
        if mitm { requirements.insert(.mitm) }
        if sc { requirements.insert(.secureConnections) }
        return PairingFeatures(ioCapability: io, oobDataPresent: oob, authRequirements: requirements,
                               initiatorKeys: [.encryptionKey], responderKeys: [.encryptionKey])
    }

    /// Who asks for MITM protection: Table 2.6/2.7 use the IO capabilities when at least one side does.
    static let mitmCases: [(initiator: Bool, responder: Bool)] = [(true, true), (true, false), (false, true)]

    @Test("Table 2.8: all 25 cells, when either side or both ask for MITM", arguments: [false, true])
    func table(secureConnections: Bool) throws {
        var checked = 0
        for (row, responder) in Self.order.enumerated() {
            for (column, initiator) in Self.order.enumerated() {
                let expected = try #require(Self.method(Self.table28[row][column], secureConnections: secureConnections))
                for mitm in Self.mitmCases {
                    let selected = PairingMethod.select(
                        initiator: Self.features(initiator, mitm: mitm.initiator, sc: secureConnections),
                        responder: Self.features(responder, mitm: mitm.responder, sc: secureConnections),
                        secureConnections: secureConnections)
                    #expect(selected == expected, "initiator \(initiator), responder \(responder), MITM \(mitm)")
                    checked += 1
                }
            }
        }
        #expect(checked == 75)
    }

    @Test("Neither side asks for MITM: Just Works, whatever the IO capabilities", arguments: [false, true])
    func noMITM(secureConnections: Bool) {
        for initiator in IOCapability.allCases {
            for responder in IOCapability.allCases {
                #expect(PairingMethod.select(initiator: Self.features(initiator, mitm: false, sc: secureConnections),
                                             responder: Self.features(responder, mitm: false, sc: secureConnections),
                                             secureConnections: secureConnections) == .justWorks)
            }
        }
    }

    @Test("Legacy OOB only when both have OOB data; otherwise MITM and Table 2.8 decide")
    func legacyOOB() {
        let cases: [(Bool, Bool, Bool, PairingMethod)] = [
            (true, true, false, .outOfBand),
            (true, true, true, .outOfBand),
            (true, false, false, .justWorks),
            (false, true, false, .justWorks),
            // KeyboardOnly initiator, DisplayOnly responder with MITM: Passkey Entry, responder displays.
            (true, false, true, .passkeyEntry(.responderDisplays)),
            (false, true, true, .passkeyEntry(.responderDisplays)),
        ]
        for (initiatorOOB, responderOOB, mitm, expected) in cases {
            let selected = PairingMethod.select(
                initiator: Self.features(.keyboardOnly, mitm: mitm, oob: initiatorOOB, sc: false),
                responder: Self.features(.displayOnly, mitm: mitm, oob: responderOOB, sc: false), secureConnections: false)
            #expect(selected == expected, "OOB flags \(initiatorOOB)/\(responderOOB), MITM \(mitm)")
        }
    }

    @Test("Secure Connections OOB when either side has OOB data, whatever MITM and IO capabilities")
    func secureConnectionsOOB() {
        for (initiatorOOB, responderOOB) in [(true, true), (true, false), (false, true)] {
            for mitm in [false, true] {
                for io in IOCapability.allCases {
                    let selected = PairingMethod.select(
                        initiator: Self.features(io, mitm: mitm, oob: initiatorOOB, sc: true),
                        responder: Self.features(.noInputNoOutput, mitm: mitm, oob: responderOOB, sc: true), secureConnections: true)
                    #expect(selected == .outOfBand, "OOB flags \(initiatorOOB)/\(responderOOB), MITM \(mitm), \(io)")
                }
            }
        }
        #expect(PairingMethod.select(initiator: Self.features(.displayYesNo, mitm: true, sc: true),
                                     responder: Self.features(.displayYesNo, mitm: true, sc: true),
                                     secureConnections: true) == .numericComparison)
    }
}
