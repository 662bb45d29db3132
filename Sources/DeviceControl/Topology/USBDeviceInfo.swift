/// One interface of a device's active configuration (alternate setting 0).
package struct USBInterfaceClass: Hashable, Sendable, Codable {
    package var number: Int
    package var classCode: UInt8
    package var subclass: UInt8
    package var protocolCode: UInt8
    package var endpoints: [USBEndpoint]

    package init(number: Int, classCode: UInt8, subclass: UInt8, protocolCode: UInt8, endpoints: [USBEndpoint] = []) {
        self.number = number
        self.classCode = classCode
        self.subclass = subclass
        self.protocolCode = protocolCode
        self.endpoints = endpoints
    }

    /// `e0/01/01`.
    package var triple: String { "\(byteHex(classCode))/\(byteHex(subclass))/\(byteHex(protocolCode))" }
}

/// An endpoint of an interface: address (bit 7 = IN) and transfer type (bits 1:0 of bmAttributes).
package struct USBEndpoint: Hashable, Sendable, Codable {
    package var address: UInt8
    package var attributes: UInt8
    package var maxPacketSize: Int

    package var isIn: Bool { address & 0x80 != 0 }
    package var isInterrupt: Bool { attributes & 0x03 == 0x03 }
}

/// A hub's switching facts, as read from its descriptor and ports.
package struct USBHubInfo: Hashable, Sendable {
    package var descriptor: HubDescriptor?
    /// GetPortStatus of each port, 1-based.
    package var ports: [Int: PortStatus]
    package var containerID: ContainerID?
    /// The other half of a USB 3 hub, and how it was found.
    package var partner: USBLocation?
    package var partnerEvidence: String?
    /// Why the descriptor or statuses could not be read (permissions, stall).
    package var problem: String?

    package init(descriptor: HubDescriptor? = nil, ports: [Int: PortStatus] = [:], containerID: ContainerID? = nil,
                partner: USBLocation? = nil, partnerEvidence: String? = nil, problem: String? = nil) {
        self.descriptor = descriptor
        self.ports = ports
        self.containerID = containerID
        self.partner = partner
        self.partnerEvidence = partnerEvidence
        self.problem = problem
    }

    package var switchingMode: PowerSwitchingMode? { descriptor?.switchingMode }
}

/// One USB device in the topology.
package struct USBDeviceInfo: Hashable, Sendable {
    package var location: USBLocation
    package var id: USBID
    /// The device number on its bus (changes on every enumeration; never used to name a hub).
    package var address: Int
    package var speed: USBSpeed
    package var bcdUSB: UInt16
    package var deviceClass: UInt8
    package var deviceSubclass: UInt8
    package var deviceProtocol: UInt8
    package var interfaces: [USBInterfaceClass]
    package var manufacturer: String?
    package var product: String?
    package var serial: String?
    /// Set for hubs.
    package var hub: USBHubInfo?

    package init(location: USBLocation, id: USBID, address: Int = 0, speed: USBSpeed = .unknown, bcdUSB: UInt16 = 0x0200,
                deviceClass: UInt8 = 0, deviceSubclass: UInt8 = 0, deviceProtocol: UInt8 = 0,
                interfaces: [USBInterfaceClass] = [], manufacturer: String? = nil, product: String? = nil,
                serial: String? = nil, hub: USBHubInfo? = nil) {
        self.location = location
        self.id = id
        self.address = address
        self.speed = speed
        self.bcdUSB = bcdUSB
        self.deviceClass = deviceClass
        self.deviceSubclass = deviceSubclass
        self.deviceProtocol = deviceProtocol
        self.interfaces = interfaces
        self.manufacturer = manufacturer
        self.product = product
        self.serial = serial
        self.hub = hub
    }

    package var isHub: Bool { deviceClass == 0x09 }
    package var isSuperSpeedHub: Bool { isHub && bcdUSB >= 0x0300 }

    /// `e0/01/01`, or the first interface's class where the device defers to its interfaces.
    package var classTriple: String {
        if deviceClass == 0, let first = interfaces.first { return first.triple }
        return "\(byteHex(deviceClass))/\(byteHex(deviceSubclass))/\(byteHex(deviceProtocol))"
    }

    /// What verification sees of this device.
    package var presence: USBPresence { USBPresence(location: location, id: id, serial: serial) }
}
