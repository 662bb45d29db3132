/// One interface of a device's active configuration (alternate setting 0).
public struct USBInterfaceClass: Hashable, Sendable, Codable {
    public var number: Int
    public var classCode: UInt8
    public var subclass: UInt8
    public var protocolCode: UInt8
    public var endpoints: [USBEndpoint]

    public init(number: Int, classCode: UInt8, subclass: UInt8, protocolCode: UInt8, endpoints: [USBEndpoint] = []) {
        self.number = number
        self.classCode = classCode
        self.subclass = subclass
        self.protocolCode = protocolCode
        self.endpoints = endpoints
    }

    /// `e0/01/01`.
    public var triple: String { "\(byteHex(classCode))/\(byteHex(subclass))/\(byteHex(protocolCode))" }
}

/// An endpoint of an interface: address (bit 7 = IN) and transfer type (bits 1:0 of bmAttributes).
public struct USBEndpoint: Hashable, Sendable, Codable {
    public var address: UInt8
    public var attributes: UInt8
    public var maxPacketSize: Int

    public var isIn: Bool { address & 0x80 != 0 }
    public var isInterrupt: Bool { attributes & 0x03 == 0x03 }
}

/// A hub's switching facts, as read from its descriptor and ports.
public struct USBHubInfo: Hashable, Sendable {
    public var descriptor: HubDescriptor?
    /// GetPortStatus of each port, 1-based.
    public var ports: [Int: PortStatus]
    public var containerID: ContainerID?
    /// The other half of a USB 3 hub, and how it was found.
    public var partner: USBLocation?
    public var partnerEvidence: String?
    /// Why the descriptor or statuses could not be read (permissions, stall).
    public var problem: String?

    public init(descriptor: HubDescriptor? = nil, ports: [Int: PortStatus] = [:], containerID: ContainerID? = nil,
                partner: USBLocation? = nil, partnerEvidence: String? = nil, problem: String? = nil) {
        self.descriptor = descriptor
        self.ports = ports
        self.containerID = containerID
        self.partner = partner
        self.partnerEvidence = partnerEvidence
        self.problem = problem
    }

    public var switchingMode: PowerSwitchingMode? { descriptor?.switchingMode }
}

/// One USB device in the topology.
public struct USBDeviceInfo: Hashable, Sendable {
    public var location: USBLocation
    public var id: USBID
    /// The device number on its bus (changes on every enumeration; never used to name a hub).
    public var address: Int
    public var speed: USBSpeed
    public var bcdUSB: UInt16
    public var deviceClass: UInt8
    public var deviceSubclass: UInt8
    public var deviceProtocol: UInt8
    public var interfaces: [USBInterfaceClass]
    public var manufacturer: String?
    public var product: String?
    public var serial: String?
    /// Set for hubs.
    public var hub: USBHubInfo?

    public init(location: USBLocation, id: USBID, address: Int = 0, speed: USBSpeed = .unknown, bcdUSB: UInt16 = 0x0200,
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

    public var isHub: Bool { deviceClass == 0x09 }
    public var isSuperSpeedHub: Bool { isHub && bcdUSB >= 0x0300 }

    /// `e0/01/01`, or the first interface's class where the device defers to its interfaces.
    public var classTriple: String {
        if deviceClass == 0, let first = interfaces.first { return first.triple }
        return "\(byteHex(deviceClass))/\(byteHex(deviceSubclass))/\(byteHex(deviceProtocol))"
    }

    /// What verification sees of this device.
    public var presence: USBPresence { USBPresence(location: location, id: id, serial: serial) }
}
