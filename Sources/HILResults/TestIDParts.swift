/// The parts of a Swift Testing test ID, `Module.Suite/Inner/function(label:)/File.swift:12:6`.
public struct TestIDParts: Hashable, Sendable {
    public var module: String
    public var suitePath: [String]
    public var function: String
    public var sourceLocation: String?

    public init(_ id: String) {
        var components = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let last = components.last, components.count > 1, Self.isSourceLocation(last) {
            sourceLocation = last
            components.removeLast()
        } else {
            sourceLocation = nil
        }
        var first = components.isEmpty ? id : components.removeFirst()
        if let dot = first.firstIndex(of: ".") {
            module = String(first[..<dot])
            first = String(first[first.index(after: dot)...])
        } else {
            module = ""
        }
        let path = [first] + components
        function = Self.trimParameters(path.last ?? id)
        suitePath = Array(path.dropLast())
    }

    /// `File.swift:12:6`.
    static func isSourceLocation(_ text: String) -> Bool {
        let pieces = text.split(separator: ":")
        return pieces.count == 3 && pieces[0].hasSuffix(".swift") && Int(pieces[1]) != nil && Int(pieces[2]) != nil
    }

    /// `powerOff(accessory:)` → `powerOff`; a display name such as "Power off (cold)" stays as it is.
    static func trimParameters(_ name: String) -> String {
        guard name.hasSuffix(")"), let open = name.firstIndex(of: "("), open != name.startIndex else { return name }
        func isIdentifier(_ text: Substring) -> Bool {
            guard let first = text.first, first == "_" || first.isLetter else { return false }
            return text.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
        }
        let base = name[..<open]
        let labels = name[name.index(after: open)..<name.index(before: name.endIndex)]
        guard isIdentifier(base), labels.isEmpty || (labels.hasSuffix(":") && labels.dropLast().split(separator: ":", omittingEmptySubsequences: false).allSatisfy(isIdentifier)) else {
            return name
        }
        return String(base)
    }

    /// `Suite/Inner/function`.
    public var displayPath: String { (suitePath + [function]).joined(separator: "/") }
}
