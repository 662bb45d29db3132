import HCIPackets
import Testing
@testable import HCIUSB

@Suite struct ClassRequestTests {
    @Test func resetIsAClassRequestToTheDevice() {
        let request = HCIClassRequest(HCICommandPacket(opcode: HCIOpcode(rawValue: 0x0C03)))
        #expect(request.setup == [0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00])
        #expect(request.transferBuffer == [0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x03, 0x0C, 0x00])
    }

    @Test func lengthIsLittleEndianAndCoversParameters() {
        let parameters = [UInt8](repeating: 0xAB, count: 255)
        let request = HCIClassRequest(HCICommandPacket(opcode: HCIOpcode(rawValue: 0x2008), parameters: parameters), index: 1)
        #expect(Array(request.setup[4...7]) == [0x01, 0x00, 0x02, 0x01]) // wIndex 1, wLength 258
        #expect(request.transferBuffer.count == 8 + 258)
    }
}

@Suite struct ReassemblerTests {
    static let commandComplete: [UInt8] = [0x0E, 0x0A, 0x01, 0x09, 0x10, 0x00, 0x42, 0x00, 0x00, 0x01, 0xAA, 0x00]
    static let acl: [UInt8] = [0x40, 0x20, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x0A, 0x01, 0x00]

    @Test func eventsByteByByteAndAllAtOnce() throws {
        var oneByOne = USBPacketReassembler(kind: .event)
        var packets: [HCIPacket] = []
        for byte in Self.commandComplete + Self.commandComplete { packets += try oneByOne.feed([byte]) }
        var whole = USBPacketReassembler(kind: .event)
        let atOnce = try whole.feed(Self.commandComplete + Self.commandComplete)
        #expect(packets.count == 2 && packets == atOnce)
        #expect(packets.first == .event(HCIEventPacket(code: 0x0E, parameters: Array(Self.commandComplete[2...]))))
        #expect(oneByOne.pendingByteCount == 0)
    }

    /// A 16-byte event on a 16-byte interrupt endpoint without a zero-length packet runs into the next
    /// transfer: the split falls anywhere.
    @Test func aclSplitAcrossTransfersAtEveryPoint() throws {
        let stream = Self.acl + Self.acl
        for split in 1..<stream.count {
            var reassembler = USBPacketReassembler(kind: .acl)
            let first = try reassembler.feed(stream[..<split])
            let second = try reassembler.feed(stream[split...])
            let all = first + second
            #expect(all.count == 2, "split at \(split)")
            #expect(all.first == .aclData(ACLDataPacket(handle: 0x040, boundary: .firstFlushable, data: Array(Self.acl[4...]))))
        }
    }

    @Test func oversizedACLIsAnError() {
        var reassembler = USBPacketReassembler(kind: .acl, maximumDataLength: 1021)
        #expect(throws: USBReassemblyError.self) { try reassembler.feed([0x40, 0x20, 0xFF, 0xFF]) }
        #expect(reassembler.pendingByteCount == 0)
    }
}

@Suite struct USBAdviceTests {
    static let dongle = USBCandidate(bus: 1, ports: [4], vendor: 0x2FE3, product: 0x000B, serial: "X", isBluetooth: true)

    @Test func accessDeniedNamesNodeAndUdevRule() {
        let error = USBAdvice.openFailed(name: "LIBUSB_ERROR_ACCESS", candidate: Self.dongle, node: "/dev/bus/usb/001/007", moniker: "usb:0")
        #expect(error.kind == .permissionDenied)
        #expect(error.message.contains("/dev/bus/usb/001/007"))
        #expect(error.message.contains("ATTR{idVendor}==\"2fe3\", ATTR{idProduct}==\"000b\""))
    }

    @Test func busyInterfaceAndLostDevice() {
        let busy = USBAdvice.claimFailed(name: "LIBUSB_ERROR_BUSY", candidate: Self.dongle, interface: 0, driver: "btusb", moniker: "usb:0")
        #expect(busy.message.contains("claimed by another program") && busy.message.contains("btusb"))
        let gone = USBAdvice.transferFailed(status: "LIBUSB_TRANSFER_NO_DEVICE", what: "reading events", moniker: "usb:0")
        #expect(gone.kind == .closedByPeer && gone.message.contains("LIBUSB_TRANSFER_NO_DEVICE"))
        let stall = USBAdvice.transferFailed(status: "LIBUSB_TRANSFER_STALL", what: "an HCI command", moniker: "usb:0")
        #expect(stall.kind == .io && stall.message.contains("LIBUSB_TRANSFER_STALL"))
        #expect(USBAdvice.deviceNode(bus: 3, address: 12) == "/dev/bus/usb/003/012")
    }
}
