import Foundation
import Roles

/// `hil scan`'s answer, as aligned text or JSON.
package struct ScanReport: Codable, Sendable {
    package struct Entry: Codable, Sendable {
        package var address: String
        package var addressType: String
        package var rssi: Int
        package var name: String?
        package var services: [String]
        package var manufacturer: String?
        package var connectable: Bool
        package var firstSeenMilliseconds: Int
        package var reports: Int
        package var advertisingData: String
    }

    package var moniker: String
    package var filter: String
    package var entries: [Entry]

    package init(moniker: String, filter: ScanFilter, results: [ScanResult]) {
        self.moniker = moniker
        self.filter = filter.description
        entries = results.map { result in
            let data = result.advertisingData
            let manufacturer = data.manufacturerData.first.map { "\($0.company)" }
            let ms = result.firstSeen.components.seconds * 1000 + result.firstSeen.components.attoseconds / 1_000_000_000_000_000
            return Entry(address: result.address.description, addressType: result.addressType.description, rssi: Int(result.rssi),
                         name: data.localName, services: data.serviceUUIDs.map(\.description), manufacturer: manufacturer,
                         connectable: result.isConnectable, firstSeenMilliseconds: Int(ms), reports: result.reportCount,
                         advertisingData: data.summary)
        }
    }


    package func text() -> String {
        if entries.isEmpty { return "no advertisers (\(filter))" }
        let header = ["ADDRESS", "TYPE", "RSSI", "NAME", "SERVICES", "CONN", "FIRST SEEN", "REPORTS"]
        let rows = entries.map { entry in
            [entry.address, entry.addressType, entry.rssi == 127 ? "n/a" : "\(entry.rssi) dBm", entry.name ?? "-",
             entry.services.isEmpty ? "-" : entry.services.joined(separator: ","), entry.connectable ? "yes" : "no",
             "\(entry.firstSeenMilliseconds) ms", "\(entry.reports)"]
        }
        var widths = header.map(\.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}
