@testable import HCIUSB
import LibUSB
import Testing

/// Endpoint selection from real dongle descriptors.
@Suite struct DescriptorParsingTests {
    /// The configuration descriptor of a CSR8510 A10 (0a12:0001) as `lsusb -v` shows it: interface 0
    /// (E0/01/01) with interrupt IN 0x81 (16 B), bulk OUT 0x02 and bulk IN 0x82 (64 B); interface 1 with
    /// six alternate settings of isochronous endpoints for SCO.
    static let csr8510: [UInt8] = {
        var bytes: [UInt8] = [0x09, 0x02, 0xB1, 0x00, 0x02, 0x01, 0x00, 0xE0, 0x32,
                              0x09, 0x04, 0x00, 0x00, 0x03, 0xE0, 0x01, 0x01, 0x00,
                              0x07, 0x05, 0x81, 0x03, 0x10, 0x00, 0x01,
                              0x07, 0x05, 0x02, 0x02, 0x40, 0x00, 0x01,
                              0x07, 0x05, 0x82, 0x02, 0x40, 0x00, 0x01]
        for (alt, size) in [0, 9, 17, 25, 33, 49].enumerated() {
            bytes += [0x09, 0x04, 0x01, UInt8(alt), 0x02, 0xE0, 0x01, 0x01, 0x00,
                      0x07, 0x05, 0x03, 0x01, UInt8(size), 0x00, 0x01,
                      0x07, 0x05, 0x83, 0x01, UInt8(size), 0x00, 0x01]
        }
        return bytes
    }()

    @Test func csr8510SelectsInterfaceZeroEndpoints() throws {
        #expect(Self.csr8510.count == 0xB1)
        let configuration = try USBConfigurationDescriptor(bytes: Self.csr8510)
        #expect(configuration.interfaces.count == 7)
        #expect(configuration.interfaces.filter { $0.number == 1 }.map(\.alternate) == [0, 1, 2, 3, 4, 5])
        let endpoints = try configuration.hciEndpoints(forced: false)
        #expect(endpoints.interface == 0)
        #expect(endpoints.interruptIn.address == 0x81 && endpoints.interruptIn.packetSize == 16)
        #expect(endpoints.bulkIn.address == 0x82 && endpoints.bulkOut.address == 0x02)
        #expect(endpoints.bulkOut.packetSize == 64)
    }

    /// A Zephyr hci_usb (nRF52840 dongle, 2fe3:000b) puts bulk OUT first and uses other addresses; the
    /// choice must come from the transfer types, not from fixed addresses.
    @Test func zephyrOrderAndAddressesComeFromTypes() throws {
        let bytes: [UInt8] = [0x09, 0x02, 0x27, 0x00, 0x01, 0x01, 0x00, 0x80, 0x32,
                              0x09, 0x04, 0x00, 0x00, 0x03, 0xE0, 0x01, 0x01, 0x00,
                              0x07, 0x05, 0x01, 0x02, 0x40, 0x00, 0x00,
                              0x07, 0x05, 0x82, 0x02, 0x40, 0x00, 0x00,
                              0x07, 0x05, 0x83, 0x03, 0x10, 0x00, 0x01]
        let endpoints = try USBConfigurationDescriptor(bytes: bytes).hciEndpoints(forced: false)
        #expect(endpoints.bulkOut.address == 0x01)
        #expect(endpoints.bulkIn.address == 0x82)
        #expect(endpoints.interruptIn.address == 0x83)
    }

    @Test func vendorClassNeedsForcedMode() throws {
        var bytes = Self.csr8510
        bytes[14] = 0xFF // interface 0 class: vendor specific
        for index in stride(from: 9 + 30, to: bytes.count, by: 23) { bytes[index + 5] = 0xFF }
        let configuration = try USBConfigurationDescriptor(bytes: bytes)
        #expect(throws: USBDescriptorError.self) { try configuration.hciEndpoints(forced: false) }
        do {
            _ = try configuration.hciEndpoints(forced: false)
        } catch {
            #expect(error.description.contains("add '!' to the selector"))
        }
        let forced = try configuration.hciEndpoints(forced: true)
        #expect(forced.interface == 0 && forced.interruptIn.address == 0x81)
    }

    @Test func malformedDescriptorsNameTheOffset() {
        var truncated = Self.csr8510
        truncated[18] = 0xF0 // an endpoint that claims 240 bytes, past the end
        #expect(throws: USBDescriptorError.self) { try USBConfigurationDescriptor(bytes: truncated) }
        do { _ = try USBConfigurationDescriptor(bytes: truncated) } catch { #expect(error.description.contains("offset 18")) }
        #expect(throws: USBDescriptorError.self) { try USBConfigurationDescriptor(bytes: [0x09, 0x02, 0xFF, 0x00]) }
        var zero = Self.csr8510
        zero[9] = 0
        #expect(throws: USBDescriptorError.self) { try USBConfigurationDescriptor(bytes: zero) }
    }

    @Test func sysfsDescriptorsFileStartsWithTheDeviceDescriptor() throws {
        let device: [UInt8] = [0x12, 0x01, 0x00, 0x02, 0xE0, 0x01, 0x01, 0x40, 0x12, 0x0A, 0x01, 0x00, 0x91, 0x88, 0x00, 0x02, 0x00, 0x01]
        let configuration = try USBConfigurationDescriptor.fromSysfsDescriptors(device + Self.csr8510)
        #expect(try configuration.hciEndpoints(forced: false).bulkIn.address == 0x82)
        #expect(throws: USBDescriptorError.self) { try USBConfigurationDescriptor.fromSysfsDescriptors(Self.csr8510) }
    }

    @Test func anInterfaceWithoutAllThreeEndpointsIsRejectedWithWhatItHas() throws {
        let bytes: [UInt8] = [0x09, 0x02, 0x20, 0x00, 0x01, 0x01, 0x00, 0x80, 0x32,
                              0x09, 0x04, 0x00, 0x00, 0x02, 0xE0, 0x01, 0x01, 0x00,
                              0x07, 0x05, 0x81, 0x03, 0x10, 0x00, 0x01,
                              0x07, 0x05, 0x02, 0x02, 0x40, 0x00, 0x00]
        do {
            _ = try USBConfigurationDescriptor(bytes: bytes).hciEndpoints(forced: false)
            Issue.record("an interface without bulk IN was accepted")
        } catch {
            #expect(error.description.contains("81 interrupt, 02 bulk"))
        }
    }
}
