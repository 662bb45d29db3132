/// Writes a `LabgridExport` as the YAML file `labgrid-exporter` reads, by hand (no YAML library).
///
/// labgrid renders the file as a Jinja2 template before YAML sees it, with `#` starting a line statement
/// and `##` a line comment. So every comment here starts with `##`, and every string is double-quoted
/// with `#`, `{`, `}` and `%` escaped (`\x23`, …) besides YAML's own escapes: no value can become
/// template syntax, a comment or a YAML indicator, whatever a rig's names hold.
package enum LabgridYAML {
    /// The whole file: a header saying where it came from and how to use it, then one group.
    package static func render(_ export: LabgridExport) -> String {
        var lines = [
            comment("labgrid exporter configuration for rig \(export.rigName)\(export.rigPath.map { " (\($0))" } ?? ""), written by hil lab export"),
            comment("serve it:  labgrid-exporter -c COORDINATOR --name EXPORTER THIS-FILE"),
            comment("use it:    labgrid-client -p PLACE add-match 'EXPORTER/\(export.group)/*'"),
            "\(quoted(export.group)):",
        ]
        for entry in export.entries {
            switch entry {
            case .resource(let resource):
                lines.append("  " + comment(resource.origin))
                lines.append("  \(quoted(resource.name)):")
                lines.append("    cls: \(quoted(resource.labgridClass))")
                for parameter in resource.parameters { lines += render(parameter, indent: "    ") }
            case .notExported(let note):
                lines.append("  " + comment("not exported: \(note.description)"))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func render(_ parameter: LabgridResource.Parameter, indent: String) -> [String] {
        switch parameter.value {
        case .text(let text): return ["\(indent)\(quoted(parameter.key)): \(quoted(text))"]
        case .integer(let number): return ["\(indent)\(quoted(parameter.key)): \(number)"]
        case .match(let properties):
            return ["\(indent)\(quoted(parameter.key)):"] + properties.map { "\(indent)  \(quoted($0.key)): \(quoted($0.value))" }
        }
    }

    /// A YAML double-quoted scalar that reads back as exactly `text`, through Jinja2 and YAML.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "#", "{", "}", "%": result += escaped(scalar)
            default: if isPrintable(scalar) { result.unicodeScalars.append(scalar) } else { result += escaped(scalar) }
            }
        }
        return result + "\""
    }

    /// `## TEXT`, with anything that would end or break the line made a space.
    static func comment(_ text: String) -> String {
        var line = "## "
        for scalar in text.unicodeScalars { line.unicodeScalars.append(isPrintable(scalar) ? scalar : " ") }
        return line
    }

    /// What YAML 1.1 lets stand in a double-quoted scalar as itself: printable characters other than
    /// line breaks (YAML reads U+0085, U+2028 and U+2029 as breaks) and the byte-order mark.
    static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// `\xNN`, `\uNNNN` or `\UNNNNNNNN`: YAML's escapes by code point.
    static func escaped(_ scalar: Unicode.Scalar) -> String {
        let (prefix, width) = scalar.value <= 0xFF ? ("\\x", 2) : scalar.value <= 0xFFFF ? ("\\u", 4) : ("\\U", 8)
        let digits = String(scalar.value, radix: 16)
        return prefix + String(repeating: "0", count: width - digits.count) + digits
    }
}
