/// Names for labgrid groups and resources: labgrid-client addresses a resource as
/// EXPORTER/GROUP/CLASS/NAME and matches places with fnmatch patterns, so a name keeps to letters,
/// digits, `.`, `_` and `-`.
enum LabgridName {
    static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy(isSafe)
    }

    private static func isSafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": true
        default: false
        }
    }

    /// `name` with each run of other characters (and of `-`) replaced by one `-`, without leading or trailing `-`;
    /// `fallback` when nothing is left.
    static func safe(_ name: String, fallback: String) -> String {
        var result = ""
        for scalar in name.unicodeScalars {
            if isSafe(scalar) && scalar != "-" {
                result.unicodeScalars.append(scalar)
            } else if !result.hasSuffix("-") {
                result += "-"
            }
        }
        while result.hasPrefix("-") { result.removeFirst() }
        while result.hasSuffix("-") { result.removeLast() }
        return result.isEmpty ? fallback : result
    }

    /// The names given out in one group: a name made safe that another already has gets `-2`, `-3`, ….
    struct Registry {
        private var taken: Set<String> = []

        mutating func claim(_ wanted: String) -> String {
            let base = LabgridName.safe(wanted, fallback: "resource")
            var name = base
            var suffix = 2
            while taken.contains(name) {
                name = "\(base)-\(suffix)"
                suffix += 1
            }
            taken.insert(name)
            return name
        }
    }
}
