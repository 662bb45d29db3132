extension PreflightError {
    /// A file past one of the `ReaderLimits`: "`what`, more than ReaderLimits.`limit` = `value`", then where.
    ///
    /// - Parameters:
    ///   - what: what the file holds ("<array> nested 513 deep").
    ///   - limit: the `ReaderLimits` property's name.
    ///   - value: its value.
    ///   - file: how to name the file.
    ///   - location: where the limit was hit (`12:5`, `byte 0x1f4`).
    ///   - path: the open elements or containers there, outermost first, if known.
    static func limit(
        _ what: String, limit: String, value: some BinaryInteger, file: String, location: String, path: [String] = []
    ) -> PreflightError {
        let inside = path.isEmpty ? "" : " in \(elementPath(path))"
        return .limitExceeded(file: file, location: location, message: "\(what), more than ReaderLimits.\(limit) = \(value)\(inside)")
    }

    /// `/manifest/application/activity`, the middle of a deep path shortened to "…(N more)…".
    static func elementPath(_ names: [String]) -> String {
        guard names.count > 8 else { return "/" + names.joined(separator: "/") }
        return "/" + names.prefix(4).joined(separator: "/") + "/…(\(names.count - 7) more)…/" + names.suffix(3).joined(separator: "/")
    }
}
