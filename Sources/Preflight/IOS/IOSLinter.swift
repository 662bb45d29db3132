/// Lints an iOS app's Info.plist against the IOS rules.
package enum IOSLinter {
    static let alwaysKey = "NSBluetoothAlwaysUsageDescription"
    static let peripheralKey = "NSBluetoothPeripheralUsageDescription"
    static let centralMode = "bluetooth-central"
    static let peripheralMode = "bluetooth-peripheral"
    /// The documented UIBackgroundModes values.
    static let knownModes: Set<String> = [
        "audio", "location", "voip", "newsstand-content", "external-accessory", "bluetooth-central",
        "bluetooth-peripheral", "fetch", "remote-notification", "processing", "nearby-interaction",
        "push-to-talk", "network-authentication",
    ]

    /// Lints a parsed Info.plist.
    /// - Parameters:
    ///   - root: the plist's top-level dictionary.
    ///   - location: where the plist is (file and archive entry); lines come from the plist nodes.
    ///   - options: deployment target, declared uses, `--explain`.
    package static func lint(_ root: PropertyListNode, location: SourceLocation, options: IOSOptions) -> Report {
        let plist = root.value.dictionary ?? [:]
        var findings: [Finding] = []
        var notes: [String] = []
        func at(_ node: PropertyListNode?) -> SourceLocation { location.at(line: (node ?? root).line, column: (node ?? root).column) }
        func add(_ rule: Rule, _ message: String, _ node: PropertyListNode?) {
            findings.append(Finding(rule: rule, message: message, location: at(node)))
        }

        // Deployment target.
        var target = options.deploymentTarget
        if target == nil, let text = plist["MinimumOSVersion"]?.value.string {
            if let version = OSVersion(text) {
                target = version
                notes.append("deployment target \(version) read from MinimumOSVersion")
            } else {
                notes.append("MinimumOSVersion is '\(text)', not a version (an unexpanded build setting?)")
            }
        }
        if target == nil {
            notes.append("deployment target unknown: IOS002 and IOS003 not checked (pass --deployment-target)")
        }

        // Background modes.
        let modesNode = plist["UIBackgroundModes"]
        let modeNodes = modesNode?.value.array ?? []
        let modes = modeNodes.compactMap { $0.value.string }

        // Uses.
        let uses: Set<IOSUse>
        if let declared = options.uses {
            uses = declared
        } else {
            var inferred: Set<IOSUse> = [.central]
            if modes.contains(centralMode) { inferred.insert(.backgroundCentral) }
            if modes.contains(peripheralMode) { inferred.insert(.backgroundPeripheral) }
            uses = inferred
            let background = inferred.subtracting([.central]).map(\.rawValue).sorted()
            notes.append("--uses not given: assumed the app uses Core Bluetooth"
                + (background.isEmpty ? "" : "; background use (\(background.joined(separator: ", "))) inferred from UIBackgroundModes")
                + "; pass --uses to check that background use has its mode")
        }

        // IOS001: the Always key.
        /// Adds `rule` for the usage description at `key` when it is missing, empty or not a string.
        func requireString(_ key: String, _ node: PropertyListNode?, _ rule: Rule, missing: String, empty: String) {
            switch node?.value {
            case nil: add(rule, missing, nil)
            case .string(let text) where text.isEmpty: add(rule, empty, node)
            case .string: break
            case let other?: add(rule, "\(key) is a \(other.typeName), not a string", node)
            }
        }
        let always = plist[alwaysKey]
        requireString(alwaysKey, always, RuleCatalog.iosAlwaysUsageMissing,
                      missing: "\(alwaysKey) is missing: the app is terminated when it uses Core Bluetooth",
                      empty: "\(alwaysKey) is empty: the app is terminated when it uses Core Bluetooth")

        // IOS002 / IOS003: the Peripheral key.
        let peripheral = plist[peripheralKey]
        if let target {
            if target < OSVersion(13) {
                requireString(peripheralKey, peripheral, RuleCatalog.iosPeripheralUsageMissing,
                              missing: "deployment target \(target) is earlier than iOS 13 and \(peripheralKey) is missing: iOS 12 and earlier read it",
                              empty: "deployment target \(target) is earlier than iOS 13 and \(peripheralKey) is empty")
            } else if peripheral != nil {
                add(RuleCatalog.iosPeripheralUsageDeprecated, "\(peripheralKey) is deprecated and unneeded with deployment target \(target)", peripheral)
            }
        }

        // IOS004: descriptions that say nothing.
        for (key, node) in [(alwaysKey, always), (peripheralKey, peripheral)] {
            guard let node, case .string(let text) = node.value, !text.isEmpty else { continue }
            if let problem = UsageDescriptionQuality.problem(with: text, key: key) {
                add(RuleCatalog.iosUselessUsageDescription, "\(key) \(problem)", node)
            }
        }

        // IOS005: background use without its mode.
        let required: [(IOSUse, String, String)] = [
            (.backgroundCentral, centralMode, "Uses Bluetooth LE accessories"),
            (.backgroundPeripheral, peripheralMode, "Acts as a Bluetooth LE accessory"),
        ]
        for (use, mode, label) in required where uses.contains(use) && !modes.contains(mode) {
            let absence = modesNode == nil ? "there is no UIBackgroundModes" : "UIBackgroundModes lacks it"
            add(RuleCatalog.iosBackgroundModeMissing, "\(use.rawValue) is declared but \(absence): add \(mode) (\"\(label)\")", modesNode)
        }
        if let modesNode, modesNode.value.array == nil {
            add(RuleCatalog.iosBackgroundModeMisspelt, "UIBackgroundModes is a \(modesNode.value.typeName), not an array of strings", modesNode)
        }

        // IOS006: misspelt Bluetooth modes.
        for node in modeNodes {
            guard let mode = node.value.string, !knownModes.contains(mode), let suggestion = bluetoothModeSuggestion(for: mode) else { continue }
            add(RuleCatalog.iosBackgroundModeMisspelt, "UIBackgroundModes value '\(mode)' is not a background mode; did you mean \(suggestion)?", node)
        }

        // IOS007: bluetooth-le as a required capability.
        if let capabilities = plist["UIRequiredDeviceCapabilities"] {
            let listed: Bool
            switch capabilities.value {
            case .array(let items): listed = items.contains { $0.value.string == "bluetooth-le" }
            case .dictionary(let entries): listed = entries["bluetooth-le"]?.value.bool == true
            default: listed = false
            }
            if listed {
                add(RuleCatalog.iosRequiredCapability, "UIRequiredDeviceCapabilities contains bluetooth-le: Apple does not document App Store filtering by it", capabilities)
            }
        }

        if options.explain {
            add(RuleCatalog.iosExplain, RuleCatalog.iosExplain.help, nil)
        }

        return Report(platform: .ios, location: location, rulesChecked: RuleCatalog.ios.filter { options.explain || $0.id != RuleCatalog.iosExplain.id },
                      findings: findings, notes: notes)
    }

    /// The Bluetooth mode a misspelt value most likely meant, or nil when it does not look like one.
    static func bluetoothModeSuggestion(for mode: String) -> String? {
        let lowered = mode.lowercased()
        let central = EditDistance.between(lowered, centralMode)
        let peripheral = EditDistance.between(lowered, peripheralMode)
        let mentionsBluetooth = ["bluetooth", "blutooth", "bluetoth", "bleutooth", "bluetoot"].contains { lowered.contains($0) }
        guard mentionsBluetooth || min(central, peripheral) <= 4 else { return nil }
        if lowered.contains("central") || lowered.contains("uses") || lowered.contains("accessories") { return centralMode }
        if lowered.contains("peripheral") || lowered.contains("acts") || lowered.contains("accessory") { return peripheralMode }
        return central <= peripheral ? centralMode : peripheralMode
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
enum EditDistance {
    static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
