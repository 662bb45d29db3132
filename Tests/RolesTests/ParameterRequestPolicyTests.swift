import HCIPackets
import Testing
import TestSupport
@testable import Roles

/// A peripheral's request for new connection parameters, both ways the spec gives it: the L2CAP Connection
/// Parameter Update Request (Core v5.4 Vol 3 Part A §4.20–4.21), which the central's policy accepts or rejects,
/// and the link layer's Connection Parameters Request procedure (Vol 6 Part B §5.1.7) when both controllers
/// support it (LE feature bit 1).
@Suite struct ParameterRequestPolicyTests {
    static let wanted = ConnectionParameters(intervalMin: 24, intervalMax: 40, latency: 0, supervisionTimeout: 200)
    static let withProcedure = LinkedDevices.defaultFeatures.union(.connectionParametersRequestProcedure)

    @Test func theCentralAcceptsAValidRequestByDefault() async throws {
        try await LinkedDevices.with { devices in
            let events = await devices.centralLink.linkEvents()
            try await devices.peripheralLink.updateParameters(Self.wanted, timeout: .seconds(2))
            #expect(await devices.peripheralLink.supervisionTimeout == 200)
            let request = try await first(of: events, within: .seconds(1), clock: devices.clock, "the parameter request")
            #expect(request == .parameterRequest(LinkParameterRequest(requested: Self.wanted, accepted: true)))
        }
    }

    @Test func aCentralThatRejectsIsReportedByResult() async throws {
        try await LinkedDevices.with { devices in
            await devices.central.setParameterRequestPolicy(.decide { $0.supervisionTimeout != 200 })
            let events = await devices.centralLink.linkEvents()
            let before = await devices.peripheralLink.supervisionTimeout
            let error = await #expect(throws: RoleError.self) {
                try await devices.peripheralLink.updateParameters(Self.wanted, timeout: .seconds(2))
            }
            #expect(error?.description == "the central rejected the connection parameter update: Connection Parameter Update Response result 0x0001 (connection parameters rejected)")
            #expect(await devices.peripheralLink.supervisionTimeout == before)
            let request = try await first(of: events, within: .seconds(1), clock: devices.clock, "the parameter request")
            #expect(request == .parameterRequest(LinkParameterRequest(requested: Self.wanted, accepted: false)))
            // Another request the policy approves goes through.
            var other = Self.wanted
            other.supervisionTimeout = 300
            try await devices.peripheralLink.updateParameters(other, timeout: .seconds(2))
            #expect(await devices.peripheralLink.supervisionTimeout == 300)
        }
    }

    /// Both controllers support the Connection Parameters Request procedure: the peripheral uses LE Connection
    /// Update itself, so no L2CAP request reaches the central, whose policy (reject all) is never asked.
    @Test func aPeripheralUsesTheLinkLayerProcedureWhenBothSupportIt() async throws {
        try await LinkedDevices.with(central: Self.withProcedure, peripheral: Self.withProcedure) { devices in
            await devices.central.setParameterRequestPolicy(.rejectAll)
            let events = await devices.centralLink.linkEvents()
            try await devices.peripheralLink.updateParameters(Self.wanted, timeout: .seconds(2))
            #expect(await devices.peripheralLink.supervisionTimeout == 200)
            #expect(await devices.peripheralLink.remoteFeatures?.contains(.connectionParametersRequestProcedure) == true)
            let update = try await first(of: events, within: .seconds(1), clock: devices.clock, "the central's parameter update")
            guard case .parameters(let parameters) = update else { throw TestFailure("the central saw \(update) first") }
            #expect(parameters.supervisionTimeout == 200)
        }
    }

    /// Only our peripheral's controller supports the procedure: the request goes over L2CAP, where the central's
    /// policy answers it.
    @Test func aPeripheralFallsBackToL2CAPWhenThePeerLacksTheProcedure() async throws {
        try await LinkedDevices.with(peripheral: Self.withProcedure) { devices in
            await devices.central.setParameterRequestPolicy(.rejectAll)
            let error = await #expect(throws: RoleError.self) {
                try await devices.peripheralLink.updateParameters(Self.wanted, timeout: .seconds(2))
            }
            #expect(error?.description.hasPrefix("the central rejected the connection parameter update") == true)
            #expect(await devices.peripheralLink.remoteFeatures?.contains(.connectionParametersRequestProcedure) == false)
        }
    }
}
