import HCIPackets

/// The UUIDs a profile may not give its own services or characteristics, because the GATT server's own
/// structure uses them:
///
/// - GAP (0x1800) and GATT (0x1801): the accessory serves each itself (GAP with the profile's name, GATT with
///   Service Changed), and a server has one of each (Core v5.4 Vol 3 Part C §12, Part G §7).
/// - The GATT declarations (Assigned Numbers §3.6: 0x2800 Primary Service, 0x2801 Secondary Service, 0x2802
///   Include, 0x2803 Characteristic) and descriptors (§3.7: 0x2900 Characteristic Extended Properties through
///   0x2902 Client Characteristic Configuration, 0x2906 Valid Range, …): a client reads an attribute of such a
///   type as the declaration or descriptor, so a characteristic of one would break discovery. The blocks
///   Assigned Numbers allocates them from (0x2800–0x28FF, 0x2900–0x29FF) are refused whole.
enum ReservedAttributeTypes {
    /// The Assigned Numbers names of the GATT declarations and descriptors (Assigned Numbers §3.6, §3.7).
    static let names: [UInt16: String] = [
        0x2800: "Primary Service", 0x2801: "Secondary Service", 0x2802: "Include", 0x2803: "Characteristic",
        0x2900: "Characteristic Extended Properties", 0x2901: "Characteristic User Description",
        0x2902: "Client Characteristic Configuration", 0x2903: "Server Characteristic Configuration",
        0x2904: "Characteristic Presentation Format", 0x2905: "Characteristic Aggregate Format", 0x2906: "Valid Range",
        0x2907: "External Report Reference", 0x2908: "Report Reference", 0x2909: "Number of Digitals",
        0x290A: "Value Trigger Setting", 0x290B: "Environmental Sensing Configuration", 0x290C: "Environmental Sensing Measurement",
        0x290D: "Environmental Sensing Trigger Setting", 0x290E: "Time Trigger Setting", 0x290F: "Complete BR-EDR Transport Block Data",
        0x2910: "Observation Schedule", 0x2911: "Valid Range and Accuracy", 0x2912: "Measurement Description",
        0x2913: "Manufacturer Limits", 0x2914: "Process Tolerances", 0x2915: "IMD Trigger Setting",
        0x2916: "Cooking Sensor Info", 0x2917: "Cooking Trigger Setting",
    ]

    /// Why a profile's service may not have `uuid`, or nil when it may.
    static func serviceProblem(_ uuid: BluetoothUUID) -> String? {
        switch uuid.uint16Value {
        case 0x1800:
            return "the accessory serves the GAP service (0x1800) itself, with the profile's name, and a GATT server has one (Core v5.4 Vol 3 Part C §12)"
        case 0x1801:
            return "the accessory serves the GATT service (0x1801) itself, with Service Changed, and a GATT server has one (Core v5.4 Vol 3 Part G §7)"
        default:
            return structuralProblem(uuid).map { "\($0), not a service" }
        }
    }

    /// Why a profile's characteristic may not have `uuid`, or nil when it may.
    static func characteristicProblem(_ uuid: BluetoothUUID) -> String? {
        structuralProblem(uuid).map { "\($0), not a characteristic: a client would read it as one" }
    }

    /// "0x2803 is the Characteristic declaration's type (Assigned Numbers §3.6)" for the declaration and
    /// descriptor blocks, nil elsewhere.
    private static func structuralProblem(_ uuid: BluetoothUUID) -> String? {
        guard let value = uuid.uint16Value else { return nil }
        let hex = "0x" + String(value, radix: 16, uppercase: true)
        switch value {
        case 0x2800...0x28FF:
            return names[value].map { "\(hex) is the \($0) declaration's type (Assigned Numbers §3.6)" }
                ?? "\(hex) is in the block of GATT declaration types (Assigned Numbers §3.6)"
        case 0x2900...0x29FF:
            return names[value].map { "\(hex) is the \($0) descriptor's type (Assigned Numbers §3.7)" }
                ?? "\(hex) is in the block of GATT descriptor types (Assigned Numbers §3.7)"
        default:
            return nil
        }
    }
}
