// Resolving a peer's private address.
import BluetoothCrypto
import HCIPackets

/// A resolvable private address: prand (the top 24 bits, 0b01 in the two most significant) and a hash
/// that the owner's IRK makes of it (Core v5.4 Vol 6 Part B §1.3.2.2, resolution Vol 3 Part C §10.8.2.3).
public enum ResolvablePrivateAddress {
    /// Whether `address` is a resolvable private address that `irk` (16 octets, HCI order) generated:
    /// hash == ah(IRK, prand).
    public static func resolves(_ address: BDAddress, with irk: [UInt8]) -> Bool {
        guard address.isResolvablePrivate, irk.count == 16 else { return false }
        let big = address.bigEndianBytes
        let prand = Array(big[0..<3])
        guard let hash = try? SecurityFunctions.ah(k: irk.reversed(), r: prand) else { return false }
        return hash == Array(big[3..<6])
    }

    /// A new resolvable private address for `irk` (HCI order), with a fresh random prand.
    public static func generate(with irk: [UInt8]) throws(SecurityError) -> BDAddress {
        do {
            // The random part of prand is neither all zeros nor all ones (Vol 6 Part B §1.3.2.2).
            var prand: [UInt8]
            repeat {
                prand = try SecureRandom.bytes(3)
                prand[0] = prand[0] & 0x3F | 0x40
            } while prand == [0x40, 0x00, 0x00] || prand == [0x7F, 0xFF, 0xFF]
            let hash = try SecurityFunctions.ah(k: irk.reversed(), r: prand)
            guard let address = BDAddress(bigEndian: prand + hash) else { throw SecurityError.crypto("could not form an address") }
            return address
        } catch let error as BluetoothCryptoError {
            throw .crypto(error.description)
        } catch let error as SecurityError {
            throw error
        } catch {
            throw .crypto("\(error)")
        }
    }
}
