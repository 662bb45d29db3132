@testable import BenchOperations
@testable import HCIPackets
@testable import HostCore
import Roles
import Testing
import TestSupport

/// The quirk stage of a `usb:` open against scripted controllers on a stepped clock: a CSR8510 clone with the
/// address clones share, a controller with the zero address, and one with its own address.
@Suite struct ControllerQuirkStageTests {
    static let sharedCloneAddress = BDAddress(0x00_1A_7D_DA_71_13)

    /// Read Local Version's return parameters after the status: a Barrot CSR clone's (manufacturer 10, HCI 4.0, HCI
    /// revision 0x0810, LMP subversion 0x1012).
    static let barrotVersion: [UInt8] = [0x06, 0x10, 0x08, 0x06, 0x0A, 0x00, 0x12, 0x10]

    /// A controller behind `ScriptedController` whose Read BD_ADDR reports `address` and whose Read Local Version
    /// reports `version` (the Barrot clone's unless given); every other command completes.
    static func controller(address: BDAddress, version: [UInt8] = barrotVersion) throws -> ScriptedController {
        try ScriptedController { command, _ in
            switch command.opcode {
            case .readLocalVersionInformation:
                return ScriptedController.commandComplete(command.opcode, version)
            case .readBDADDR:
                return ScriptedController.commandComplete(command.opcode, address.littleEndianBytes)
            default:
                return ScriptedController.healthy(command) ?? ScriptedController.commandComplete(command.opcode)
            }
        }
    }

    /// Runs the stage for a CSR-ID dongle at `location` (device release `bcdDevice`) whose controller reports
    /// `address` and `version`.
    static func run(address: BDAddress, location: String, serial: String? = nil, bcdDevice: UInt16? = nil, version: [UInt8] = barrotVersion,
                    then body: (HCIHost, ScriptedController) async throws -> Void = { _, _ in }) async throws -> ControllerQuirks {
        try await withSteppedTime { time in
            let controller = try controller(address: address, version: version)
            let host = try controller.makeHost(clock: time.clock)
            let quirks = try await ControllerQuirkStage(vendor: 0x0A12, product: 0x0001, serial: serial, location: location,
                                                        bcdDevice: bcdDevice).run(on: host)
            try await body(host, controller)
            await host.close()
            return quirks
        }
    }

    @Test("A clone with the shared CSR address gets a random static address, the same at the same location, another elsewhere")
    func sharedAddress() async throws {
        let first = try await Self.run(address: Self.sharedCloneAddress, location: "1-1.4")
        let again = try await Self.run(address: Self.sharedCloneAddress, location: "1-1.4")
        let other = try await Self.run(address: Self.sharedCloneAddress, location: "1-1.3")
        let address = try #require(first.staticRandomAddress.flatMap(BDAddress.init))
        #expect(address.isStaticRandom && address.hasValidRandomPart)
        #expect(address.bigEndianBytes[0] & 0xC0 == 0xC0)
        #expect(again.staticRandomAddress == first.staticRandomAddress)
        #expect(other.staticRandomAddress != first.staticRandomAddress)
        #expect(first.publicAddress == "00:1A:7D:DA:71:13" && first.addressUsed == address.description)
        #expect(first.derivedFrom == "0a12:0001 location:1-1.4")
        #expect(first.clone?.contains("0x0810") == true)
        #expect(first.btusb.map(\.flag) == ["BTUSB_CSR"])
        #expect(first.lines.contains { $0.contains("using random static address \(address)") })
    }

    /// Read Local Version of a CSR Bluetooth 2.0 build as btusb's table of legit builds lists it: manufacturer 10,
    /// HCI and LMP version 3 (2.0), build 0x0C5C in both HCI revision and LMP subversion.
    static let csr20Version: [UInt8] = [0x03, 0x5C, 0x0C, 0x03, 0x0A, 0x00, 0x5C, 0x0C]

    @Test("The device's bcdDevice reaches btusb's last clone rule: 0x0134 with a CSR 2.0 build is a clone, other releases not",
          arguments: [(UInt16?.none, false), (0x0134, true), (0x0100, false), (0x8891, false)])
    func bcdDeviceRule(bcdDevice: UInt16?, clone: Bool) async throws {
        let quirks = try await Self.run(address: BDAddress(0x00_1B_DC_07_32_EF), location: "1-1.4", bcdDevice: bcdDevice, version: Self.csr20Version)
        #expect((quirks.clone != nil) == clone)
        if clone { #expect(quirks.clone?.contains("bcdDevice 0x0134") == true) }
    }

    @Test("A serial number, when the dongle has one, is what the address follows")
    func serialNumber() async throws {
        let here = try await Self.run(address: Self.sharedCloneAddress, location: "1-1.4", serial: "A1")
        let moved = try await Self.run(address: Self.sharedCloneAddress, location: "2-3", serial: "A1")
        #expect(here.staticRandomAddress != nil && here.staticRandomAddress == moved.staticRandomAddress)
        #expect(here.derivedFrom == "0a12:0001 serial:A1")
    }

    @Test("The zero address is replaced too")
    func zeroAddress() async throws {
        let first = try await Self.run(address: .zero, location: "1-2")
        let again = try await Self.run(address: .zero, location: "1-2")
        let address = try #require(first.staticRandomAddress.flatMap(BDAddress.init))
        #expect(address.isStaticRandom && address.hasValidRandomPart)
        #expect(again.staticRandomAddress == first.staticRandomAddress)
        #expect(first.publicAddressProblem?.contains("zero") == true)
    }

    @Test("A controller's own public address is kept")
    func realAddress() async throws {
        let quirks = try await Self.run(address: BDAddress(0x00_1B_DC_07_32_EF), location: "1-1.4") { host, _ in
            #expect(host.staticRandomAddress == nil)
            let (own, random) = await LEDevice(host: host).ownAddress()
            #expect(!random && own == .zero) // not initialized: no public address read by the host yet
        }
        #expect(quirks.staticRandomAddress == nil && quirks.publicAddressProblem == nil)
        #expect(quirks.addressUsed == "00:1B:DC:07:32:EF")
    }

    @Test("The device advertises with the replacement: LE Set Random Address, then own address type random")
    func advertisesWithReplacement() async throws {
        var replacement: BDAddress?
        let quirks = try await Self.run(address: Self.sharedCloneAddress, location: "1-1.4") { host, controller in
            replacement = host.staticRandomAddress
            let device = LEDevice(host: host)
            try await device.startAdvertising(Advertisement(name: "hil"))
            let commands = controller.commands
            let setRandom = try #require(commands.first { $0.opcode == .leSetRandomAddress })
            #expect(setRandom.parameters == replacement?.littleEndianBytes)
            let parameters = try #require(commands.first { $0.opcode == .leSetAdvertisingParameters })
            #expect(parameters.parameters[5] == AddressType.random.rawValue)
            #expect(await device.ownAddress() == (try #require(replacement), true))
        }
        #expect(quirks.staticRandomAddress == replacement?.description)
    }
}
