/// The parts of an AndroidManifest.xml that the Bluetooth lint reads, with where each was declared.
///
/// Built from a `XMLTextElement` tree (text or binary XML). Applies the manifest merger's `tools:`
/// markers that change what ships: an element with `tools:node="remove"` or `"removeAll"` is dropped, and
/// attributes named in `tools:remove` are dropped. Other `tools:` attributes (`replace`, `targetApi`,
/// `ignore`...) do not change the declaration and are ignored.
package struct AndroidManifest: Sendable {
    /// The `android:` namespace URI.
    package static let androidNamespace = "http://schemas.android.com/apk/res/android"
    /// The `tools:` namespace URI of the manifest merger.
    package static let toolsNamespace = "http://schemas.android.com/tools"

    /// A `<uses-permission>` or `<uses-permission-sdk-23>`.
    package struct Permission: Sendable, Hashable {
        /// `android:name`, e.g. `android.permission.BLUETOOTH_SCAN`.
        package let name: String
        /// `android:maxSdkVersion`, when given and numeric.
        package let maxSdkVersion: Int?
        /// `android:maxSdkVersion` as written, when given (to report a non-numeric one).
        package let maxSdkVersionText: String?
        /// `android:usesPermissionFlags` split on `|` (binary manifests: decoded from the flag bits).
        package let usesPermissionFlags: [String]
        /// True for `<uses-permission-sdk-23>`: requested only on API 23 and later.
        package let sdk23Only: Bool
        package let line: Int?
        package let column: Int?

        /// The lowest API level on which the permission is requested.
        package var minimumAPI: Int { sdk23Only ? 23 : 1 }

        /// True when requested on every API level in `range`.
        package func covers(_ range: ClosedRange<Int>) -> Bool {
            minimumAPI <= range.lowerBound && (maxSdkVersion ?? Int.max) >= range.upperBound
        }

        /// The short name without `android.permission.`.
        package var shortName: String {
            name.hasPrefix("android.permission.") ? String(name.dropFirst("android.permission.".count)) : name
        }
    }

    /// A `<uses-feature>`.
    package struct Feature: Sendable, Hashable {
        package let name: String
        /// `android:required`; absent means true.
        package let required: Bool
        package let line: Int?
        package let column: Int?
    }

    /// A `<service>` inside `<application>`.
    package struct Service: Sendable, Hashable {
        package let name: String
        /// `android:foregroundServiceType` split on `|` (binary manifests: decoded from the flag bits).
        package let foregroundServiceTypes: [String]
        package let line: Int?
        package let column: Int?
    }

    /// `<uses-sdk android:minSdkVersion>`, when numeric.
    package let minSdkVersion: Int?
    /// `<uses-sdk android:targetSdkVersion>`, when numeric.
    package let targetSdkVersion: Int?
    /// The `package` attribute.
    package let package: String?
    package let permissions: [Permission]
    package let features: [Feature]
    package let services: [Service]
    /// Line of `<manifest>` (where "missing" findings point).
    package let line: Int?
    package let column: Int?

    /// The neverForLocation bit of `usesPermissionFlags` (`PackageInfo.REQUESTED_PERMISSION_NEVER_FOR_LOCATION`).
    static let neverForLocationBit = 0x10000
    /// Flag bits of `foregroundServiceType`, as compiled into binary manifests.
    static let foregroundServiceTypeBits: [(Int, String)] = [
        (0x1, "dataSync"), (0x2, "mediaPlayback"), (0x4, "phoneCall"), (0x8, "location"),
        (0x10, "connectedDevice"), (0x20, "mediaProjection"), (0x40, "camera"), (0x80, "microphone"),
        (0x100, "health"), (0x200, "remoteMessaging"), (0x400, "systemExempted"), (0x800, "shortService"),
        (0x4000_0000, "specialUse"),
    ]

    /// Reads the manifest model from a parsed document; `file` names it in errors.
    package init(_ root: XMLTextElement, file: String) throws(PreflightError) {
        guard root.localName == "manifest" else {
            throw .unexpectedContent(file: file, message: "the root element is <\(root.localName)>, not <manifest>: not an AndroidManifest.xml")
        }
        let android = Self.androidNamespace
        line = root.line
        column = root.column
        package = root.attribute("package", namespace: nil)

        let kept = root.children.filter(Self.isKept)
        var minSdk: Int?, targetSdk: Int?
        for usesSdk in kept where usesSdk.localName == "uses-sdk" {
            let attributes = Self.keptAttributes(usesSdk)
            if let text = attributes.attribute("minSdkVersion", namespace: android) { minSdk = Int(text) ?? minSdk }
            if let text = attributes.attribute("targetSdkVersion", namespace: android) { targetSdk = Int(text) ?? targetSdk }
        }
        minSdkVersion = minSdk
        targetSdkVersion = targetSdk ?? minSdk

        permissions = kept.compactMap { element -> Permission? in
            guard element.localName == "uses-permission" || element.localName == "uses-permission-sdk-23" else { return nil }
            let attributes = Self.keptAttributes(element)
            guard let name = attributes.attribute("name", namespace: android) else { return nil }
            let maxText = attributes.attribute("maxSdkVersion", namespace: android)
            let flags = attributes.attribute("usesPermissionFlags", namespace: android).map {
                Self.flagNames($0, bits: [(Self.neverForLocationBit, "neverForLocation")])
            } ?? []
            return Permission(name: name.trimmingCharactersInWhitespace(), maxSdkVersion: maxText.flatMap { Int($0.trimmingCharactersInWhitespace()) },
                              maxSdkVersionText: maxText, usesPermissionFlags: flags,
                              sdk23Only: element.localName == "uses-permission-sdk-23", line: element.line, column: element.column)
        }
        features = kept.compactMap { element -> Feature? in
            guard element.localName == "uses-feature" else { return nil }
            let attributes = Self.keptAttributes(element)
            guard let name = attributes.attribute("name", namespace: android) else { return nil }
            let required = attributes.attribute("required", namespace: android).map { $0.trimmingCharactersInWhitespace().lowercased() != "false" } ?? true
            return Feature(name: name, required: required, line: element.line, column: element.column)
        }
        services = kept.filter { $0.localName == "application" }.flatMap { application in
            application.children.filter(Self.isKept).compactMap { element -> Service? in
                guard element.localName == "service" else { return nil }
                let attributes = Self.keptAttributes(element)
                let types = attributes.attribute("foregroundServiceType", namespace: android).map {
                    Self.flagNames($0, bits: Self.foregroundServiceTypeBits)
                } ?? []
                return Service(name: attributes.attribute("name", namespace: android) ?? "(unnamed)",
                               foregroundServiceTypes: types, line: element.line, column: element.column)
            }
        }
    }

    /// The permission declarations with this full name.
    package func permissions(named name: String) -> [Permission] {
        permissions.filter { $0.name == name }
    }

    /// The first declaration of `name` that is requested on every API level of `range`, if any.
    package func permission(_ name: String, covering range: ClosedRange<Int>) -> Permission? {
        permissions.first { $0.name == name && $0.covers(range) }
    }

    /// The `<uses-feature>` with this name, if declared.
    package func feature(_ name: String) -> Feature? {
        features.first { $0.name == name }
    }

    // MARK: Merger markers

    private static func isKept(_ element: XMLTextElement) -> Bool {
        let node = element.attribute("node", namespace: toolsNamespace)?.trimmingCharactersInWhitespace()
        return node != "remove" && node != "removeAll"
    }

    /// The element with the attributes listed in `tools:remove` taken out.
    private static func keptAttributes(_ element: XMLTextElement) -> XMLTextElement {
        guard let list = element.attribute("remove", namespace: toolsNamespace) else { return element }
        let removed = Set(list.split(separator: ",").map { String($0).trimmingCharactersInWhitespace() })
        var copy = element
        copy.attributes.removeAll { attribute in
            attribute.namespaceURI == androidNamespace && removed.contains("android:\(attribute.localName)")
        }
        return copy
    }

    /// `a|b` names, or flag bits (decimal or `0x` hex, as binary manifests hold them) turned into names.
    static func flagNames(_ text: String, bits: [(Int, String)]) -> [String] {
        let trimmed = text.trimmingCharactersInWhitespace()
        let number: Int? = trimmed.lowercased().hasPrefix("0x") ? Int(trimmed.dropFirst(2), radix: 16) : Int(trimmed)
        if let number {
            var names = bits.filter { number & $0.0 != 0 }.map(\.1)
            let known = bits.reduce(0) { $0 | $1.0 }
            if number & ~known != 0 { names.append("0x" + String(number & ~known, radix: 16)) }
            return names
        }
        return trimmed.split(separator: "|").map { String($0).trimmingCharactersInWhitespace() }.filter { !$0.isEmpty }
    }
}
