import Foundation
import HCIPackets
import SMP

/// `hil bonds list|forget|export|import`: the bond store.
enum BondsCommand {
    static let usage = """
        usage: hil bonds list [--bonds DIR] [--json]
               hil bonds forget ADDRESS [--adapter MONIKER] [--bonds DIR]
               hil bonds export --adapter MONIKER [--bonds DIR] > FILE
               hil bonds import FILE [--adapter MONIKER] [--bonds DIR]
        The bond store: one JSON file per adapter (mode 0600) holding our identity on it and its bonds.
        DIR defaults to $HIL_BONDS, else ~/.local/share/hil/bonds.
        export prints an adapter's file: its identity and bonds, keys included (keep it as private as the store).
        import merges such a file into the store (into its own adapter's file unless --adapter says another),
        each bond replacing the one with the same peer; a new adapter file takes the exported identity.
        One writer at a time changes a file, merged into what is on the disk then: no change is lost to another
        command's. A change that cannot be written fails with exit 2, naming the file and the failure.
        """

    /// What `hil bonds` was asked to do.
    enum Verb {
        case list(json: Bool)
        case forget(BDAddress)
        case export
        case importing(String)
    }

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let verb: Verb
        let directory: BondDirectory
        let adapter: String?
        do {
            directory = BondDirectory.resolved(try arguments.option("bonds"))
            let json = arguments.flag("json")
            adapter = try arguments.option("adapter")
            switch try arguments.required("list, forget, export or import") {
            case "list": verb = .list(json: json)
            case "forget":
                let text = try arguments.required("the peer's address")
                guard let parsed = BDAddress(text) else { throw UsageError("'\(text)' is not a BD_ADDR like C0:48:49:4C:00:02") }
                verb = .forget(parsed)
            case "export":
                guard adapter != nil else { throw UsageError("export needs --adapter MONIKER (the adapter whose file to print)") }
                verb = .export
            case "import": verb = .importing(try arguments.required("the file to import (written by hil bonds export)"))
            case let other: throw UsageError("unknown bonds command '\(other)': list, forget, export or import")
            }
            try arguments.finish()
        } catch {
            return Diagnostics.usageError("bonds", error)
        }
        switch verb {
        case .list(let json): return await list(directory, json: json)
        case .forget(let address): return await forget(address, adapter: adapter, in: directory)
        case .export: return await export(adapter ?? "", from: directory)
        case .importing(let file): return await importFile(file, adapter: adapter, into: directory)
        }
    }

    /// Every readable adapter file; one line on standard error for each that is not (and exit 3 then).
    static func readFiles(_ directory: BondDirectory) -> (files: [AdapterBondFile], status: ExitStatus) {
        var files: [AdapterBondFile] = []
        var status = ExitStatus.success
        for result in directory.files() {
            switch result {
            case .success(let file): files.append(file)
            case .failure(let error):
                StandardStreams.error("hil bonds: \(error)\n")
                status = .usageError
            }
        }
        return (files, status)
    }

    static func forget(_ address: BDAddress, adapter: String?, in directory: BondDirectory) async -> ExitStatus {
        let (files, status) = readFiles(directory)
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

    static func list(_ directory: BondDirectory, json: Bool) async -> ExitStatus {
        let (files, status) = readFiles(directory)
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
