import Rigs

/// A rig's hardware as a labgrid exporter configuration (`hil lab export`): the USB dongle, the hub
/// ports, YKUSH ports and relays that power its accessories, one group named after the rig, so a lab
/// declares a bench once and labgrid's coordinator places, reserves and powers it.
///
/// Built from a rig read by `Rig.load(path:)`; `yaml` writes it (see `LabgridYAML`). Parts labgrid has
/// no resource for (a simulated controller or switch, a `command` or `process` switch, an adapter named
/// by enumeration order) are kept as notes, which the YAML carries as comments.
package struct LabgridExport: Sendable, Equatable {
    /// One line of the configuration, in the order written.
    package enum Entry: Sendable, Equatable {
        case resource(LabgridResource)
        case notExported(NotExported)
    }

    /// A part of the rig labgrid has no resource for, and why.
    package struct NotExported: Sendable, Equatable, CustomStringConvertible {
        /// The part: `adapter sim:central`, `switch pdu port 1`.
        package var part: String
        /// What it is, that labgrid cannot hold: `a simulated controller, inside hil's own process`.
        package var reason: String
        /// What it powers, when it is a switch port (`thermometer's power`).
        package var powers: String?
        /// What a lab can do instead, if anything.
        package var advice: String?

        package init(part: String, reason: String, powers: String? = nil, advice: String? = nil) {
            self.part = part
            self.reason = reason
            self.powers = powers
            self.advice = advice
        }

        /// `thermometer's power: switch pdu port 1: a command switch; declare …`.
        package var description: String {
            "\(powers.map { "\($0): " } ?? "")\(part): \(reason)\(advice.map { "; \($0)" } ?? "")"
        }
    }

    /// The exporter group: `--group`, else the rig's name made safe for labgrid's match patterns.
    package var group: String
    package var rigName: String
    package var rigPath: String?
    package var entries: [Entry]

    /// The resources only, in order.
    package var resources: [LabgridResource] {
        entries.compactMap { if case .resource(let resource) = $0 { resource } else { nil } }
    }

    /// The notes on what was not exported, in order.
    package var notExported: [NotExported] {
        entries.compactMap { if case .notExported(let note) = $0 { note } else { nil } }
    }

    /// Maps `rig`: its adapter first, then the switch ports that power the adapter and each accessory
    /// (named after them), then the switches' other ports (`SWITCH-portN`), each switch in rig order.
    /// Throws when `group` is not a name labgrid's match patterns can hold, or when nothing of the rig
    /// can be exported (a simulated bench).
    package init(rig: Rig, group: String? = nil) throws(LabgridExportError) {
        if let group, !LabgridName.isSafe(group) {
            throw LabgridExportError("--group '\(group)': use letters, digits, '.', '_' and '-' (labgrid-client matches EXPORTER/GROUP/CLASS/NAME)")
        }
        self.group = group ?? LabgridName.safe(rig.name, fallback: "rig")
        rigName = rig.name
        rigPath = rig.path
        var names = LabgridName.Registry()
        entries = [Self.adapterEntry(rig.adapter, names: &names)] + Self.powerPortEntries(rig, names: &names)
        if resources.isEmpty {
            var parts: [String] = []
            for note in notExported where !parts.contains("\(note.part) (\(note.reason))") { parts.append("\(note.part) (\(note.reason))") }
            throw LabgridExportError("rig \(rig.path ?? rig.name) has nothing labgrid can export: \(parts.joined(separator: ", "))")
        }
    }
}

/// Why a rig cannot be exported: one line.
package struct LabgridExportError: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
