import Foundation
import HCI

/// `hil bonds list [--json]`, `hil bonds forget ADDRESS [--adapter MONIKER]`: the bond store.
enum BondsCommand {
    static let usage = """
        usage: hil bonds list [--bonds DIR] [--json]
               hil bonds forget ADDRESS [--adapter MONIKER] [--bonds DIR]
        The bond store: one JSON file per adapter (mode 0600) holding our identity on it and its bonds.
        DIR defaults to $HIL_BONDS, else ~/.local/share/hil/bonds.
        """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        if arguments.flag("help") { print(usage); return .success }
        let verb: String
        let directory: BondDirectory
        let json: Bool
        let adapter: String?
        var address: BDAddress?
        do {
            directory = BondDirectory.resolved(try arguments.option("bonds"))
            json = arguments.flag("json")
            adapter = try arguments.option("adapter")
            verb = try arguments.required("list or forget")
            if verb == "forget" {
                let text = try arguments.required("the peer's address")
                guard let parsed = BDAddress(text) else { throw UsageError("'\(text)' is not a BD_ADDR like C0:48:49:4C:00:02") }
                address = parsed
            } else if verb != "list" {
                throw UsageError("unknown bonds command '\(verb)': list or forget")
            }
            try arguments.finish()
        } catch {
            return Diagnostics.usageError("bonds", error)
        }
        var files: [AdapterBondFile] = []
        var status = ExitStatus.success
        for result in directory.files() {
            switch result {
            case .success(let file): files.append(file)
            case .failure(let error):
                FileHandle.standardError.write(Data("hil bonds: \(error)\n".utf8))
                status = .usageError
            }
        }
        if let address {
            var forgotten = false
            for file in files where adapter.map({ $0 == file.adapter }) ?? true {
                do {
                    if try await file.forget(peer: address) {
                        print("forgot \(address) on \(file.adapter) (\(file.path))")
                        forgotten = true
                    }
                } catch {
                    return Diagnostics.fail("bonds", error.description, .infrastructureError)
                }
            }
            guard forgotten else { return Diagnostics.fail("bonds", "no bond with \(address)\(adapter.map { " on \($0)" } ?? "") in \(directory.path)", .productFailure) }
            return status
        }
        if json {
            var entries: [[String: Any]] = []
            for file in files {
                let identity = await file.identity
                for bond in await file.bonds() {
                    entries.append(["adapter": file.adapter, "identity": identity.address.description, "peer": bond.peerAddress.description,
                                    "peerType": bond.peerAddressType.isRandom ? "random" : "public", "method": bond.method,
                                    "secureConnections": bond.secureConnections, "authenticated": bond.authenticated,
                                    "keySize": Int(bond.keySize), "irk": bond.peerIdentityResolvingKey != nil, "file": file.path])
                }
            }
            if let data = try? JSONSerialization.data(withJSONObject: entries, options: [.prettyPrinted, .sortedKeys]) {
                print(String(decoding: data, as: UTF8.self))
            }
            return status
        }
        if files.isEmpty { print("no bonds in \(directory.path)") }
        for file in files {
            let identity = await file.identity
            let bonds = await file.bonds()
            print("\(file.adapter)  as \(identity.address) (\(identity.addressType))  \(file.path)")
            if bonds.isEmpty { print("  no bonds") }
            for bond in bonds {
                let level = bond.security.level
                print("  \(bond.peerAddress) (\(bond.peerAddressType.isRandom ? "random" : "public"))  \(bond.method), "
                      + "\(bond.secureConnections ? "Secure Connections" : "legacy"), \(bond.authenticated ? "authenticated" : "unauthenticated"), "
                      + "\(bond.keySize)-octet key, level \(level)\(bond.peerIdentityResolvingKey != nil ? ", IRK" : "")")
            }
        }
        return status
    }
}
