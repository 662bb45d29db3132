import MCUbootImage
import StrictJSON

extension SimulatedDFU {
    /// The most octets a key's PEM file may hold (a P-256 or Ed25519 key's PEM is under 300).
    static let keyFileBytes = 16_384

    /// Reads the key files the block names, relative to `directory` unless absolute (`""`: the working directory):
    /// `signingKeyFile` into `signingKey`, `signedWithFile` into `signedWith`. A file that cannot be read, or
    /// holds no PEM key MCUboot checks signatures with (ECDSA P-256 or Ed25519), is an error at `path.signingKey`
    /// naming the file: `accessories[0].simulated.dfu.signingKey: rigs/keys/x.pub.pem: cannot read it (no such
    /// file)`; so is, at `path.signedWith`, a file with no ECDSA P-256 private key or another key than signingKey's.
    package mutating func readKeys(relativeTo directory: String, at path: String) throws(InputError) {
        if let file = signingKeyFile {
            let (resolved, text) = try Self.read(file, relativeTo: directory, at: "\(path).signingKey")
            do { signingKey = try MCUbootPublicKey(pem: text) } catch {
                throw InputError(at: "\(path).signingKey", "\(resolved): not a PEM ECDSA P-256 or Ed25519 key MCUboot checks signatures with (\(error))")
            }
        }
        if let file = signedWithFile {
            let (resolved, key) = try Self.readSigningKey(file, relativeTo: directory, at: "\(path).signedWith")
            if let signingKey, signingKey != key.publicKey {
                throw InputError(at: "\(path).signedWith", "\(resolved): not the private half of signingKey (its public key is \(key.publicKey), signingKey is \(signingKey))")
            }
            signedWith = key
        }
    }

    /// The PEM ECDSA P-256 private key in `file` (relative to `directory` unless absolute), and the path it was read
    /// at; a file that cannot be read or holds no such key is an error at `field` naming it.
    package static func readSigningKey(_ file: String, relativeTo directory: String, at field: String) throws(InputError) -> (path: String, key: MCUbootSigningKey) {
        let (resolved, text) = try read(file, relativeTo: directory, at: field)
        do { return (resolved, try MCUbootSigningKey(pem: text)) } catch {
            throw InputError(at: field, "\(resolved): not a PEM ECDSA P-256 private key (\(error))")
        }
    }

    /// The text of `file` (relative to `directory` unless absolute) and the path it was read at.
    static func read(_ file: String, relativeTo directory: String, at field: String) throws(InputError) -> (path: String, text: String) {
        let path = file.hasPrefix("/") || directory.isEmpty ? file : directory + "/" + file
        do {
            return (path, String(decoding: try InputFile.contents(path, limit: keyFileBytes, limitName: "a key file's limit"), as: UTF8.self))
        } catch {
            throw InputError(at: field, "\(path): \(error.message)")
        }
    }
}
