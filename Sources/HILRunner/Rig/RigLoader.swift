import DeviceControl
import Foundation
import HCI
import Simulation

/// A rig file that cannot be used: the message names the field path and the wrong value.
public struct RigError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension Rig {
    /// The default rig: `rigs/simulated.json` of this package, found from the working directory or the
    /// executable's location.
    public static func defaultPath() -> String? {
        var candidates = [FileManager.default.currentDirectoryPath]
        var url = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(url.path)
            url = url.deletingLastPathComponent()
        }
        for directory in candidates {
            let path = (directory as NSString).appendingPathComponent("rigs/simulated.json")
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// Reads and validates a rig file.
    public static func load(path: String) throws(RigError) -> Rig {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RigError("rig file \(path): cannot read it (no such file, or not readable)")
        }
        do {
            var rig = try parse(data)
            rig.path = path
            return rig
        } catch {
            throw RigError("rig file \(path): \(error.description)")
        }
    }

    /// Parses rig JSON; errors name the field path (`accessories[1].power.port`) and the wrong value.
    public static func parse(_ data: Data) throws(RigError) -> Rig {
        let file: RigFileModel
        do {
            file = try JSONDecoder().decode(RigFileModel.self, from: data)
        } catch let error as DecodingError {
            throw RigError(describe(error))
        } catch {
            throw RigError("\(error)")
        }
        return try file.validated()
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
            }
            return text.isEmpty ? "(top level)" : text
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type), \(context.debugDescription.lowercased())"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "\(path(context.codingPath)): \(underlying ?? context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// The JSON shape of a rig file.
struct RigFileModel: Decodable {
    struct Adapter: Decodable {
        var moniker: String
        var power: Power?
    }

    struct Power: Decodable {
        var `switch`: String
        var port: Int
    }

    struct Match: Decodable {
        var name: String?
        var address: String?
        var service: String?
        var manufacturer: Int?
    }

    struct Accessory: Decodable {
        var name: String
        var match: Match
        var power: Power?
        var expectedServices: [String]?
        var simulated: SimulatedAccessoryDescription?
    }

    struct Budgets: Decodable {
        var advertisingAfterPowerOnMilliseconds: Double?
        var connectMilliseconds: Double?
        var discoveryMilliseconds: Double?
        var linkLossMarginMilliseconds: Double?
        var reconnectMilliseconds: Double?
        var adapterResetMilliseconds: Double?
        var supervisionTimeoutMilliseconds: Double?
        var connectionIntervalMilliseconds: Double?
        var stabilityCycles: Int?
        var connectP95Milliseconds: Double?
        var discoveryP95Milliseconds: Double?
        var minimumSuccessRate: Double?
    }

    struct PowerSwitchName: Decodable { var name: String }

    var name: String
    var description: String?
    var adapter: Adapter
    var accessories: [Accessory]
    var budgets: Budgets?
    var remoteLossReasons: [String]?
    var localDisconnectReasons: [String]?
    var reportsLinkLoss: Bool?
    var peerSeesAdapterReset: Bool?
    var simulation: SimulatedBenchDescription?
    var powerSwitches: [PowerSwitchName]?

    func validated() throws(RigError) -> Rig {
        guard !name.isEmpty else { throw RigError("name: must not be empty") }
        do {
            _ = try TransportMoniker(parsing: adapter.moniker)
        } catch {
            throw RigError("adapter.moniker: \(error.message)")
        }
        let switchNames = Set((powerSwitches ?? []).map(\.name) + [simulation?.powerSwitch?.name].compactMap { $0 })
        let controllerNames = Set((simulation?.controllers ?? []).map(\.name))
        func power(_ value: Power?, _ at: String) throws(RigError) -> Rig.PowerReference? {
            guard let value else { return nil }
            guard switchNames.contains(value.switch) else {
                throw RigError("\(at).switch: no power switch named '\(value.switch)' (the rig has: \(switchNames.sorted().joined(separator: ", ")))")
            }
            guard (1...255).contains(value.port) else { throw RigError("\(at).port: expected 1…255, found \(value.port)") }
            return Rig.PowerReference(switchName: value.switch, port: value.port)
        }
        var seen = Set<String>()
        var accessories: [Rig.Accessory] = []
        for (index, item) in self.accessories.enumerated() {
            let at = "accessories[\(index)]"
            guard !item.name.isEmpty else { throw RigError("\(at).name: must not be empty") }
            guard seen.insert(item.name).inserted else { throw RigError("\(at).name: '\(item.name)' is used twice") }
            var filter = ScanFilter(name: item.match.name)
            if let text = item.match.address {
                guard let address = BDAddress(text) else { throw RigError("\(at).match.address: '\(text)' is not a BD_ADDR") }
                filter.address = address
            }
            if let text = item.match.service {
                guard let uuid = BluetoothUUID(text) else { throw RigError("\(at).match.service: '\(text)' is not a UUID") }
                filter.serviceUUID = uuid
            }
            if let value = item.match.manufacturer {
                guard (0...0xFFFF).contains(value) else { throw RigError("\(at).match.manufacturer: expected 0…65535, found \(value)") }
                filter.manufacturer = CompanyIdentifier(rawValue: UInt16(value))
            }
            guard !filter.isEmpty else { throw RigError("\(at).match: give a name, address, service or manufacturer to recognise it by") }
            var expected: [BluetoothUUID] = []
            for (serviceIndex, text) in (item.expectedServices ?? []).enumerated() {
                guard let uuid = BluetoothUUID(text) else { throw RigError("\(at).expectedServices[\(serviceIndex)]: '\(text)' is not a UUID") }
                expected.append(uuid)
            }
            if let simulated = item.simulated {
                guard controllerNames.contains(simulated.controller) else {
                    throw RigError("\(at).simulated.controller: no simulated controller named '\(simulated.controller)' (simulation.controllers has: \(controllerNames.sorted().joined(separator: ", ")))")
                }
            }
            accessories.append(Rig.Accessory(name: item.name, match: filter, power: try power(item.power, "\(at).power"),
                                             expectedServices: expected, simulated: item.simulated))
        }
        func statuses(_ texts: [String], _ key: String) throws(RigError) -> [HCIStatus] {
            var result: [HCIStatus] = []
            for (index, text) in texts.enumerated() {
                let digits = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
                guard let value = UInt8(digits, radix: 16) else { throw RigError("\(key)[\(index)]: '\(text)' is not a status code like 0x08") }
                result.append(HCIStatus(rawValue: value))
            }
            return result
        }
        let reasons = try statuses(remoteLossReasons ?? ["0x08"], "remoteLossReasons")
        let localReasons = try statuses(localDisconnectReasons ?? ["0x16"], "localDisconnectReasons")
        if let simulation {
            let problems = simulation.problems
            guard problems.isEmpty else { throw RigError("simulation: \(problems.joined(separator: "; "))") }
        }
        let b = budgets
        func ms(_ value: Double?, _ fallback: Double, _ key: String) throws(RigError) -> Duration {
            let value = value ?? fallback
            guard value > 0 && value <= 3_600_000 else { throw RigError("budgets.\(key): expected a positive number of milliseconds, found \(value)") }
            return .seconds(double: value / 1000)
        }
        if let interval = b?.connectionIntervalMilliseconds, !(7.5...4000).contains(interval) {
            throw RigError("budgets.connectionIntervalMilliseconds: expected 7.5…4000 (Core v5.4 Vol 6 Part B §4.5.1), found \(interval)")
        }
        let cycles = b?.stabilityCycles ?? 10
        guard (1...100_000).contains(cycles) else { throw RigError("budgets.stabilityCycles: expected 1…100000, found \(cycles)") }
        let rate = b?.minimumSuccessRate ?? 1
        guard (0...1).contains(rate) else { throw RigError("budgets.minimumSuccessRate: expected 0…1, found \(rate)") }
        let budgets = Rig.Budgets(
            advertisingAfterPowerOn: try ms(b?.advertisingAfterPowerOnMilliseconds, 3000, "advertisingAfterPowerOnMilliseconds"),
            connect: try ms(b?.connectMilliseconds, 3000, "connectMilliseconds"),
            discovery: try ms(b?.discoveryMilliseconds, 5000, "discoveryMilliseconds"),
            linkLossMargin: try ms(b?.linkLossMarginMilliseconds, 1000, "linkLossMarginMilliseconds"),
            reconnect: try ms(b?.reconnectMilliseconds, 5000, "reconnectMilliseconds"),
            adapterReset: try ms(b?.adapterResetMilliseconds, 5000, "adapterResetMilliseconds"),
            supervisionTimeout: try ms(b?.supervisionTimeoutMilliseconds, 420, "supervisionTimeoutMilliseconds"),
            connectionInterval: try ms(b?.connectionIntervalMilliseconds, 30, "connectionIntervalMilliseconds"),
            stabilityCycles: cycles,
            connectP95: try ms(b?.connectP95Milliseconds, 3000, "connectP95Milliseconds"),
            discoveryP95: try ms(b?.discoveryP95Milliseconds, 5000, "discoveryP95Milliseconds"),
            minimumSuccessRate: rate)
        return Rig(name: name, summary: description,
                   adapter: Rig.Adapter(moniker: adapter.moniker, power: try power(adapter.power, "adapter.power")),
                   accessories: accessories, budgets: budgets, remoteLossReasons: reasons, localDisconnectReasons: localReasons,
                   reportsLinkLoss: reportsLinkLoss ?? true, peerSeesAdapterReset: peerSeesAdapterReset ?? (reportsLinkLoss ?? true),
                   simulation: simulation, path: nil)
    }
}
