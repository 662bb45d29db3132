/// Lints an Android app's manifest against the AND rules.
///
/// The rules reason about API-level ranges: a permission "covers" a range when it is requested on every
/// level of it (`uses-permission-sdk-23` starts at 23, `android:maxSdkVersion` ends it). The old
/// permissions (BLUETOOTH, BLUETOOTH_ADMIN, location for scanning) are needed from minSdk up to 30 when
/// targeting 31+, and on every version when targeting 30 or lower, because such an app keeps the old
/// permission model on Android 12+.
package enum AndroidLinter {
    /// The target Google Play requires of new apps and updates (API 35 from 31 August 2025), assumed when none is known.
    package static let assumedTargetSdk = 35
    /// The minSdk assumed when none is known: Android 5.0, where BluetoothLeScanner arrived.
    package static let assumedMinSdk = 21

    typealias P = AndroidPermissions

    /// Lints a parsed manifest.
    package static func lint(_ manifest: AndroidManifest, location: SourceLocation, options: AndroidOptions) -> Report {
        var findings: [Finding] = []
        var notes: [String] = []
        let root = location.at(line: manifest.line, column: manifest.column)
        func add(_ rule: Rule, _ message: String, line: Int? = nil, column: Int? = nil) {
            findings.append(Finding(rule: rule, message: message, location: line == nil ? root : location.at(line: line, column: column)))
        }
        func add(_ rule: Rule, _ message: String, at permission: AndroidManifest.Permission) {
            add(rule, message, line: permission.line, column: permission.column)
        }

        // SDK levels.
        /// The level given or declared, else `assumed`, with a note saying so.
        func sdkLevel(_ known: Int?, assumed: Int, note: String) -> Int {
            if let known { return known }
            notes.append(note)
            return assumed
        }
        let minSdk = sdkLevel(options.minSdk ?? manifest.minSdkVersion, assumed: assumedMinSdk,
                              note: "minSdk unknown (no --min-sdk, no <uses-sdk android:minSdkVersion>): assumed \(assumedMinSdk)")
        let targetSdk = sdkLevel(options.targetSdk ?? manifest.targetSdkVersion, assumed: assumedTargetSdk,
                                 note: "targetSdk unknown (no --target-sdk, no <uses-sdk android:targetSdkVersion>): assumed \(assumedTargetSdk), the level Google Play requires")
        if targetSdk < minSdk { notes.append("targetSdk \(targetSdk) is lower than minSdk \(minSdk)") }

        // Uses.
        let uses = options.uses ?? inferUses(manifest, notes: &notes)
        let scan = uses.contains(.scan), connect = uses.contains(.connect), advertise = uses.contains(.advertise)
        let anyRadio = scan || connect || advertise

        // Ranges of API levels on which each permission model applies.
        let newModel = targetSdk >= 31
        let newRange = max(31, minSdk)...Int.max
        let legacyTop = newModel ? 30 : Int.max
        let legacyApplies = minSdk <= 30
        let legacyRange = minSdk...max(minSdk, legacyTop)
        func levels(_ range: ClosedRange<Int>) -> String {
            range.upperBound == Int.max ? "API \(range.lowerBound) and later" : "API \(range.lowerBound)–\(range.upperBound)"
        }
        func shortfall(_ name: String, _ range: ClosedRange<Int>) -> String {
            let declared = manifest.permissions(named: name)
            guard let first = declared.first else { return "is not declared" }
            if let max = first.maxSdkVersion, max < range.upperBound { return "is capped at android:maxSdkVersion=\"\(max)\"" }
            if first.minimumAPI > range.lowerBound { return "is declared with <uses-permission-sdk-23> only" }
            return "does not cover \(levels(range))"
        }

        // AND001–AND003: the Android 12 runtime permissions.
        if newModel {
            let needs: [(Bool, String, Rule, String)] = [
                (scan, P.bluetoothScan, RuleCatalog.androidScanPermissionMissing, "scans"),
                (connect, P.bluetoothConnect, RuleCatalog.androidConnectPermissionMissing, "connects"),
                (advertise, P.bluetoothAdvertise, RuleCatalog.androidAdvertisePermissionMissing, "advertises"),
            ]
            for (needed, name, rule, verb) in needs where needed && manifest.permission(name, covering: newRange) == nil {
                let declared = manifest.permissions(named: name).first
                add(rule, "targets API \(targetSdk) and \(verb), but \(name.dropFirst(P.prefix.count)) \(shortfall(name, newRange)) (needed on \(levels(newRange)))",
                    line: declared?.line, column: declared?.column)
            }
        }

        // AND004: old permissions that Android 12+ should not be granted.
        if newModel {
            for permission in manifest.permissions where permission.name == P.bluetooth || permission.name == P.bluetoothAdmin {
                guard (permission.maxSdkVersion ?? Int.max) > 30 else { continue }
                let cap = permission.maxSdkVersionText.map { "android:maxSdkVersion=\"\($0)\"" } ?? "no android:maxSdkVersion"
                add(RuleCatalog.androidLegacyNotCapped, "\(permission.shortName) has \(cap) while targeting API \(targetSdk): add android:maxSdkVersion=\"30\"", at: permission)
            }
        }

        // AND005: old permissions missing where the old model applies.
        if legacyApplies && anyRadio {
            var needed: [String] = [P.bluetooth]
            if scan || advertise { needed.append(P.bluetoothAdmin) }
            for name in needed where manifest.permission(name, covering: legacyRange) == nil {
                let why = name == P.bluetoothAdmin ? (scan ? "startScan" : "startAdvertising") + " needs it" : "every Bluetooth call needs it"
                let declared = manifest.permissions(named: name).first
                add(RuleCatalog.androidLegacyMissing, "minSdk \(minSdk), target \(targetSdk): \(name.dropFirst(P.prefix.count)) \(shortfall(name, legacyRange)), but \(why) on \(levels(legacyRange))",
                    line: declared?.line, column: declared?.column)
            }
        }

        // AND006: scanning without location on Android 6–11 (and later when targeting 30 or lower).
        if legacyApplies && scan && legacyRange.upperBound >= 23 {
            let range = max(23, minSdk)...legacyRange.upperBound
            let fine = manifest.permission(P.fineLocation, covering: range)
            let coarse = manifest.permission(P.coarseLocation, covering: range)
            if targetSdk >= 29 {
                if fine == nil {
                    let coarseNote = coarse == nil ? "" : " (ACCESS_COARSE_LOCATION suffices only when targeting API 28 or lower)"
                    let declared = manifest.permissions(named: P.fineLocation).first
                    add(RuleCatalog.androidLegacyLocationMissing, "scans on \(levels(range)) but ACCESS_FINE_LOCATION \(shortfall(P.fineLocation, range))\(coarseNote): scans find nothing",
                        line: declared?.line, column: declared?.column)
                }
            } else if fine == nil && coarse == nil {
                add(RuleCatalog.androidLegacyLocationMissing, "scans on \(levels(range)) without ACCESS_FINE_LOCATION or ACCESS_COARSE_LOCATION: scans find nothing")
            }
        }

        // AND011: discovery from a service on Android 10–11 without background location.
        if scan && uses.contains(.background) && targetSdk >= 29 && legacyApplies && legacyRange.upperBound >= 29 {
            let range = max(29, minSdk)...legacyRange.upperBound
            if manifest.permission(P.backgroundLocation, covering: range) == nil {
                let service = manifest.services.first { $0.foregroundServiceTypes.contains("connectedDevice") }
                let which = service.map { "service \($0.name)" } ?? "a service"
                add(RuleCatalog.androidBackgroundLocationMissing, "\(which) discovers devices on \(levels(range)) but ACCESS_BACKGROUND_LOCATION \(shortfall(P.backgroundLocation, range))",
                    line: service?.line, column: service?.column)
            }
        }

        // AND007–AND010: the location stance of BLUETOOTH_SCAN.
        if newModel, let scanPermission = manifest.permissions.first(where: { $0.name == P.bluetoothScan && ($0.maxSdkVersion ?? Int.max) >= 31 }) {
            let neverForLocation = scanPermission.usesPermissionFlags.contains("neverForLocation")
            let fineOnNew = manifest.permission(P.fineLocation, covering: newRange)
            if !neverForLocation && fineOnNew == nil {
                add(RuleCatalog.androidScanWithoutLocationStance, "BLUETOOTH_SCAN has no android:usesPermissionFlags=\"neverForLocation\" and ACCESS_FINE_LOCATION \(shortfall(P.fineLocation, newRange)): Android 12+ filters the scan results", at: scanPermission)
            }
            if neverForLocation && uses.contains(.location) {
                add(RuleCatalog.androidNeverForLocationContradiction, "BLUETOOTH_SCAN asserts neverForLocation, but the app derives location from scan results", at: scanPermission)
            }
            if neverForLocation && uses.contains(.beacons) {
                add(RuleCatalog.androidNeverForLocationBeacons, "BLUETOOTH_SCAN asserts neverForLocation and the app looks for beacons: some beacons are filtered from the results", at: scanPermission)
            }
            if neverForLocation && !uses.contains(.location) {
                for fine in manifest.permissions(named: P.fineLocation) where (fine.maxSdkVersion ?? Int.max) > 30 {
                    let cap = fine.maxSdkVersionText.map { "android:maxSdkVersion=\"\($0)\"" } ?? "no android:maxSdkVersion"
                    add(RuleCatalog.androidFineLocationNotCapped, "BLUETOOTH_SCAN asserts neverForLocation but ACCESS_FINE_LOCATION has \(cap): cap it at 30 unless the app needs location for something else", at: fine)
                }
            }
        }

        // AND012–AND013: the bluetooth_le feature.
        if let feature = manifest.feature("android.hardware.bluetooth_le") {
            if feature.required {
                add(RuleCatalog.androidFeatureRequired, "android.hardware.bluetooth_le is required: Google Play hides the app from devices without Bluetooth LE", line: feature.line, column: feature.column)
            }
        } else if anyRadio {
            add(RuleCatalog.androidFeatureMissing, "no <uses-feature android:name=\"android.hardware.bluetooth_le\" android:required=\"true|false\"/>")
        }

        // AND014: companion pairing while asking for location.
        if uses.contains(.companion) && !uses.contains(.location) && !uses.contains(.beacons),
           let location = manifest.permissions.first(where: { $0.name == P.fineLocation || $0.name == P.coarseLocation }) {
            add(RuleCatalog.androidCompanionInsteadOfLocation, "the app pairs with one accessory and requests \(location.shortName): Companion Device Manager (API 26+) pairs without location permissions", at: location)
        }

        // AND015–AND016: names and flags.
        for permission in manifest.permissions {
            if P.looksLikePlatformBluetooth(permission.name) && !P.knownBluetooth.contains(permission.name) {
                add(RuleCatalog.androidUnknownPermission, "'\(permission.name)' is not an Android permission; did you mean \(P.nearestBluetooth(to: permission.name))?", at: permission)
            }
            guard !permission.usesPermissionFlags.isEmpty else { continue }
            if !P.takeUsesPermissionFlags.contains(permission.name) {
                add(RuleCatalog.androidMisplacedFlags, "android:usesPermissionFlags on \(permission.shortName), which does not take it (only BLUETOOTH_SCAN and NEARBY_WIFI_DEVICES do)", at: permission)
            } else {
                for flag in permission.usesPermissionFlags where !P.knownUsesPermissionFlags.contains(flag) {
                    add(RuleCatalog.androidMisplacedFlags, "android:usesPermissionFlags on \(permission.shortName) has unknown flag '\(flag)' (the only flag is neverForLocation)", at: permission)
                }
            }
        }

        if options.explain {
            add(RuleCatalog.androidExplain, RuleCatalog.androidExplain.help)
        }

        return Report(platform: .android, location: location,
                      rulesChecked: RuleCatalog.android.filter { options.explain || $0.id != RuleCatalog.androidExplain.id },
                      findings: findings, notes: notes)
    }

    /// What the declarations say the app does, with a note saying so.
    static func inferUses(_ manifest: AndroidManifest, notes: inout [String]) -> Set<AndroidUse> {
        var uses: Set<AndroidUse> = []
        var reasons: [String] = []
        func declared(_ name: String) -> Bool { !manifest.permissions(named: name).isEmpty }
        if declared(P.bluetoothScan) || declared(P.bluetoothAdmin) {
            uses.insert(.scan)
            reasons.append("scan (from \(declared(P.bluetoothScan) ? "BLUETOOTH_SCAN" : "BLUETOOTH_ADMIN"))")
        }
        if declared(P.bluetoothConnect) || declared(P.bluetooth) {
            uses.insert(.connect)
            reasons.append("connect (from \(declared(P.bluetoothConnect) ? "BLUETOOTH_CONNECT" : "BLUETOOTH"))")
        }
        if declared(P.bluetoothAdvertise) {
            uses.insert(.advertise)
            reasons.append("advertise (from BLUETOOTH_ADVERTISE)")
        }
        if uses.contains(.scan) {
            if declared(P.backgroundLocation) {
                uses.insert(.background)
                reasons.append("background (from ACCESS_BACKGROUND_LOCATION)")
            } else if let service = manifest.services.first(where: { $0.foregroundServiceTypes.contains("connectedDevice") }) {
                uses.insert(.background)
                reasons.append("background (from service \(service.name) of type connectedDevice)")
            }
        }
        if manifest.permissions.contains(where: { P.isCompanion($0.name) }) || manifest.feature("android.software.companion_device_setup") != nil {
            uses.insert(.companion)
            reasons.append("companion (from the Companion Device Manager declarations)")
        }
        if reasons.isEmpty {
            notes.append("--uses not given and no Bluetooth permission declared: nothing inferred (pass --uses scan,connect,...)")
        } else {
            notes.append("--uses not given: inferred \(reasons.joined(separator: ", ")); location and beacons cannot be inferred (pass --uses to state what the app does)")
        }
        return uses
    }
}
