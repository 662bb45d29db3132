import HCIPackets
import HostCore

/// A PHY a host can ask a link to use (Core v5.4 Vol 4 Part E §7.8.49: TX_PHYS/RX_PHYS bit 0 LE 1M, bit 1
/// LE 2M, bit 2 LE Coded; PHY_Options 1 prefers S=2 coding, 2 prefers S=8).
public enum PHYPreference: String, Sendable, Hashable, CaseIterable {
    case le1M = "1M"
    case le2M = "2M"
    case codedS2 = "coded-s2"
    case codedS8 = "coded-s8"

    /// The TX_PHYS/RX_PHYS bit of this PHY.
    public var bits: UInt8 {
        switch self {
        case .le1M: 0x01
        case .le2M: 0x02
        case .codedS2, .codedS8: 0x04
        }
    }

    /// PHY_Options: the coding a Coded preference asks for.
    public var options: UInt16 {
        switch self {
        case .le1M, .le2M: 0
        case .codedS2: 1
        case .codedS8: 2
        }
    }

    /// The PHY number LE PHY Update Complete reports for it (1 LE 1M, 2 LE 2M, 3 LE Coded).
    public var phy: UInt8 {
        switch self {
        case .le1M: 1
        case .le2M: 2
        case .codedS2, .codedS8: 3
        }
    }
}

extension LEConnection {
    /// LE Set PHY (Core v5.4 Vol 4 Part E §7.8.49) for both directions, then waits for LE PHY Update
    /// Complete (which the initiating host always gets, changed or not) and returns the PHYs in use. A
    /// peer or controller without the PHY leaves the link where it was: compare the result with `preference`.
    @discardableResult
    public func setPHY(_ preference: PHYPreference, timeout: Duration = .seconds(5)) async throws(RoleError) -> LinkPHY {
        guard isConnected else { throw .disconnected(handle: handle, reason: disconnectionReason ?? .unknownConnectionIdentifier) }
        let handle = handle
        let completion: Expectation<LinkPHYUpdate>
        do throws(HCIError) {
            completion = try await host.expect("LE PHY Update Complete for handle 0x\(hex4(handle))", timeout: timeout) { event -> LinkPHYUpdate? in
                guard case .hci(.le(.phyUpdateComplete(let status, handle, let tx, let rx))) = event else { return nil }
                return LinkPHYUpdate(status: status, phy: LinkPHY(transmitter: tx, receiver: rx))
            }
            do {
                try await host.send(LESetPHY(handle: handle, transmitPHYs: preference.bits, receivePHYs: preference.bits, options: preference.options))
            } catch {
                await host.discard(completion)
                throw error
            }
            let update = try await host.wait(for: completion)
            guard update.status == .success else { throw HCIError.commandFailed(opcode: .leSetPHY, status: update.status) }
            return update.phy
        } catch {
            throw .host(error)
        }
    }

    /// LE Set Data Length (Core v5.4 Vol 4 Part E §7.8.33) for the data PDUs this side sends (`time` by default
    /// what carries `octets` on every PHY, LE Coded S=8 included: `DataLength.time(carrying:)`), then waits up to
    /// `timeout` for the LE Data Length Change of what this side transmits and returns the lengths in use. A
    /// controller reports a change only when a value changed (the peer may allow less than asked): when none
    /// comes within `timeout`, the lengths in use are the ones already reported, and those are returned.
    @discardableResult
    public func setDataLength(octets: UInt16, time: UInt16? = nil, timeout: Duration = .seconds(2)) async throws(RoleError) -> LinkDataLength {
        guard isConnected else { throw .disconnected(handle: handle, reason: disconnectionReason ?? .unknownConnectionIdentifier) }
        let length = DataLength(octets: octets, time: time ?? DataLength.time(carrying: octets))
        guard length.isValidForHCI else {
            throw .rejected("data length \(length) is outside HCI's 27…251 octets and 328…17040 µs (Core v5.4 Vol 4 Part E §7.8.33)")
        }
        let handle = handle
        // Only a change of what this side transmits answers this request: a peer's own Data Length Update (a
        // streaming accessory starts one as the link comes up) may report a change of the other direction just
        // before or after the command, and is not the answer.
        let before = dataLength.transmit
        let change: Expectation<LinkDataLength>
        do throws(HCIError) {
            change = try await host.expect("LE Data Length Change of what handle 0x\(hex4(handle)) transmits", timeout: timeout) { event -> LinkDataLength? in
                guard case .hci(.le(.dataLengthChange(handle, let txOctets, let txTime, let rxOctets, let rxTime))) = event,
                      DataLength(octets: txOctets, time: txTime) != before else { return nil }
                return LinkDataLength(transmit: DataLength(octets: txOctets, time: txTime), receive: DataLength(octets: rxOctets, time: rxTime))
            }
            do {
                _ = try await host.send(LESetDataLength(handle: handle, length: length))
            } catch {
                await host.discard(change)
                throw error
            }
            return try await host.wait(for: change)
        } catch {
            if case .eventTimeout = error { return dataLength }
            throw .host(error)
        }
    }
}

extension LEDevice {
    /// LE Write Suggested Default Data Length (Core v5.4 Vol 4 Part E §7.8.35): the data length the controller
    /// proposes on every new link.
    public func suggestDefaultDataLength(octets: UInt16) async throws(RoleError) {
        let length = DataLength(octets: octets, time: DataLength.time(carrying: octets))
        guard length.isValidForHCI else {
            throw .rejected("data length \(length) is outside HCI's 27…251 octets (Core v5.4 Vol 4 Part E §7.8.35)")
        }
        do {
            try await host.send(LEWriteSuggestedDefaultDataLength(length: length))
        } catch {
            throw .host(error)
        }
    }
}
