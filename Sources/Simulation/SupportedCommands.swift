import HCIPackets

/// The Supported_Commands bit mask of Read Local Supported Commands (Core v5.4 Vol 4 Part E §6.27): the
/// commands a simulated controller implements, as (octet, bit), checked against btmon's decoding.
enum SupportedCommands {
    static let implemented: [(octet: Int, bit: Int)] = [
        (0, 5),                                  // Disconnect
        (2, 7),                                  // Read Remote Version Information
        (5, 6), (5, 7),                          // Set Event Mask, Reset
        (14, 3), (14, 5), (14, 7),               // Read Local Version Information, Read Local Supported Features, Read Buffer Size
        (15, 1),                                 // Read BD_ADDR
        (22, 2),                                 // Set Event Mask Page 2
        (24, 6),                                 // Write LE Host Support
        (25, 0), (25, 1), (25, 2), (25, 4), (25, 5), (25, 6), (25, 7), // LE Set Event Mask … LE Set Advertising Data
        (26, 0), (26, 1), (26, 2), (26, 3), (26, 4), (26, 5), (26, 6), // LE Set Scan Response Data … LE Read FAL Size
        (27, 2), (27, 5), (27, 6), (27, 7),      // LE Connection Update, LE Read Remote Features, LE Encrypt, LE Rand
        (28, 0), (28, 1), (28, 2), (28, 3),      // LE Enable Encryption, LE LTK Request (Negative) Reply, LE Read Supported States
        (33, 6), (33, 7), (34, 0),               // LE Set Data Length, LE Read / Write Suggested Default Data Length
        (35, 3), (35, 4), (35, 5), (35, 6),      // LE Read Maximum Data Length, LE Read PHY, LE Set Default PHY, LE Set PHY
        (36, 6),                                 // LE Read Maximum Advertising Data Length
    ]

    /// The advertising set commands of a controller with LE Extended Advertising.
    static let advertisingSets: [(octet: Int, bit: Int)] = [
        (36, 1), (36, 2), (36, 3), (36, 4), (36, 5), // LE Set Advertising Set Random Address … LE Set Extended Advertising Enable
        (36, 7), (37, 0), (37, 1),                   // LE Read Number of Supported Advertising Sets, LE Remove / Clear Advertising Sets
    ]

    /// The 64-octet mask of a controller with `features`.
    static func mask(for features: LEFeatures) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: 64)
        let commands = implemented + (features.contains(.leExtendedAdvertising) ? advertisingSets : [])
        for (octet, bit) in commands { mask[octet] |= 1 << UInt8(bit) }
        return mask
    }
}
