import BluetoothCrypto
import HCIPackets
import LibUSB

/// A random static address (Core v5.4 Vol 6 Part B §1.3.2.1: the two most significant bits 0b11, the other 46
/// neither all zeros nor all ones) derived from what identifies one dongle on one bench — its USB serial when
/// it has one, else its USB location — so the same dongle gets the same address at every open, in every run,
/// and two dongles get different ones. The first six octets of SHA-256 (libcrypto, `BluetoothCrypto.SHA256`)
/// of a domain-separated seed; a digest whose random part is all zeros or ones moves on to the next octets.
package enum StableStaticAddress {
    /// The seed of a dongle: `serial:` and its serial number when it has one, else `location:` and its USB
    /// location (bus and ports, `1-1.4`), after its USB ID.
    package static func seed(vendor: UInt16, product: UInt16, serial: String?, location: String) -> String {
        let id = USBHex.id(vendor, product)
        if let serial, !serial.isEmpty { return "\(id) serial:\(serial)" }
        return "\(id) location:\(location)"
    }

    /// The address for `seed`.
    package static func derive(from seed: String) throws(BluetoothCryptoError) -> BDAddress {
        let digest = try SHA256.digest(Array("hil random static address\0\(seed)".utf8))
        for start in stride(from: 0, through: digest.count - 6, by: 6) {
            var octets = Array(digest[start..<start + 6])
            octets[0] |= 0xC0
            if let address = BDAddress(bigEndian: octets), address.hasValidRandomPart { return address }
        }
        throw .invalidArgument(what: "seed", reason: "no valid random static address in the digest of \(seed)")
    }
}
