/// Every rule the lint knows, with its stable ID, severity and source.
///
/// IDs are stable: a rule that changes meaning gets a new ID; a retired ID is never reused.
package enum RuleCatalog {
    // MARK: Sources

    enum Sources {
        static let alwaysKey = RuleSource(
            title: "Apple: Information Property List, NSBluetoothAlwaysUsageDescription",
            url: "https://developer.apple.com/documentation/bundleresources/information-property-list/nsbluetoothalwaysusagedescription")
        static let peripheralKey = RuleSource(
            title: "Apple: Information Property List, NSBluetoothPeripheralUsageDescription",
            url: "https://developer.apple.com/documentation/bundleresources/information-property-list/nsbluetoothperipheralusagedescription")
        static let coreBluetooth = RuleSource(
            title: "Apple: Core Bluetooth framework reference",
            url: "https://developer.apple.com/documentation/corebluetooth")
        static let purposeStrings = RuleSource(
            title: "Apple: Requesting access to protected resources (purpose strings)",
            url: "https://developer.apple.com/documentation/uikit/requesting-access-to-protected-resources")
        static let backgroundModes = RuleSource(
            title: "Apple: Information Property List, UIBackgroundModes",
            url: "https://developer.apple.com/documentation/bundleresources/information-property-list/uibackgroundmodes")
        static let backgroundProcessing = RuleSource(
            title: "Apple: Core Bluetooth Programming Guide, Core Bluetooth Background Processing for iOS Apps",
            url: "https://developer.apple.com/library/archive/documentation/NetworkingInternet/Conceptual/CoreBluetooth_concepts/CoreBluetoothBackgroundProcessingForIOSApps/PerformingTasksWhileYourAppIsInTheBackground.html")
        static let deviceCapabilities = RuleSource(
            title: "Apple: Information Property List, UIRequiredDeviceCapabilities",
            url: "https://developer.apple.com/documentation/bundleresources/information-property-list/uirequireddevicecapabilities")
        static let cbManagerAuthorization = RuleSource(
            title: "Apple: CBManager.authorization",
            url: "https://developer.apple.com/documentation/corebluetooth/cbmanager/authorization-swift.type.property")
        static let androidPermissions = RuleSource(
            title: "Google: Android developers, Bluetooth permissions",
            url: "https://developer.android.com/develop/connectivity/bluetooth/bt-permissions")
        static let startScan = RuleSource(
            title: "Google: BluetoothLeScanner reference, startScan",
            url: "https://developer.android.com/reference/android/bluetooth/le/BluetoothLeScanner")
        static let startAdvertising = RuleSource(
            title: "Google: BluetoothLeAdvertiser reference, startAdvertising",
            url: "https://developer.android.com/reference/android/bluetooth/le/BluetoothLeAdvertiser")
        static let manifestPermission = RuleSource(
            title: "Google: Manifest.permission reference",
            url: "https://developer.android.com/reference/android/Manifest.permission")
        static let usesPermission = RuleSource(
            title: "Google: <uses-permission> manifest element",
            url: "https://developer.android.com/guide/topics/manifest/uses-permission-element")
        static let usesFeature = RuleSource(
            title: "Google: <uses-feature> manifest element and Google Play filtering",
            url: "https://developer.android.com/guide/topics/manifest/uses-feature-element")
        static let companion = RuleSource(
            title: "Google: Companion device pairing",
            url: "https://developer.android.com/develop/connectivity/bluetooth/companion-device-pairing")
        static let runtimePermissions = RuleSource(
            title: "Google: Request runtime permissions",
            url: "https://developer.android.com/training/permissions/requesting")
    }

    // MARK: iOS

    /// NSBluetoothAlwaysUsageDescription missing, empty or not a string.
    package static let iosAlwaysUsageMissing = Rule(
        id: "IOS001", name: "AlwaysUsageDescriptionMissing", platform: .ios, severity: .error,
        summary: "NSBluetoothAlwaysUsageDescription is missing or empty.",
        help: "Core Bluetooth terminates an app whose Info.plist lacks NSBluetoothAlwaysUsageDescription the moment it uses Bluetooth (iOS 13 and later). Add the key with a sentence saying what the app does with Bluetooth.",
        sources: [Sources.alwaysKey, Sources.coreBluetooth])

    /// Deployment target before iOS 13 without NSBluetoothPeripheralUsageDescription.
    package static let iosPeripheralUsageMissing = Rule(
        id: "IOS002", name: "PeripheralUsageDescriptionMissing", platform: .ios, severity: .error,
        summary: "Deployment target is earlier than iOS 13 and NSBluetoothPeripheralUsageDescription is missing.",
        help: "iOS 12 and earlier read NSBluetoothPeripheralUsageDescription, not the Always key, and terminate the app without it. Add it alongside NSBluetoothAlwaysUsageDescription, or raise the deployment target to 13.",
        sources: [Sources.alwaysKey, Sources.peripheralKey, Sources.coreBluetooth])

    /// NSBluetoothPeripheralUsageDescription present with a target of 13 or later.
    package static let iosPeripheralUsageDeprecated = Rule(
        id: "IOS003", name: "PeripheralUsageDescriptionUnneeded", platform: .ios, severity: .info,
        summary: "NSBluetoothPeripheralUsageDescription is deprecated and unneeded with a deployment target of iOS 13 or later.",
        help: "No supported iOS version reads the key; it can be removed.",
        sources: [Sources.peripheralKey])

    /// A Bluetooth usage description that says nothing to a user.
    package static let iosUselessUsageDescription = Rule(
        id: "IOS004", name: "UsageDescriptionUninformative", platform: .ios, severity: .warning,
        summary: "A Bluetooth usage description says nothing to a user (blank, a placeholder, the key's own name, a single word).",
        help: "The string is shown in the permission prompt; say what the app does with Bluetooth (\"Connects to your heart-rate strap to record workouts\"). App Review rejects vague purpose strings.",
        sources: [Sources.purposeStrings, Sources.alwaysKey])

    /// Background Bluetooth use without the matching UIBackgroundModes value.
    package static let iosBackgroundModeMissing = Rule(
        id: "IOS005", name: "BackgroundModeMissing", platform: .ios, severity: .error,
        summary: "Background Bluetooth use is declared but UIBackgroundModes lacks bluetooth-central or bluetooth-peripheral.",
        help: "Without the mode the app is suspended in the background and its Core Bluetooth events wait until it returns to the foreground. Add bluetooth-central (Xcode: \"Uses Bluetooth LE accessories\") or bluetooth-peripheral (\"Acts as a Bluetooth LE accessory\").",
        sources: [Sources.backgroundModes, Sources.backgroundProcessing])

    /// A misspelt Bluetooth background mode.
    package static let iosBackgroundModeMisspelt = Rule(
        id: "IOS006", name: "BackgroundModeMisspelt", platform: .ios, severity: .error,
        summary: "A UIBackgroundModes value looks like a Bluetooth mode but is not one.",
        help: "iOS ignores values it does not know, so the app gets no background Bluetooth. The only values are bluetooth-central and bluetooth-peripheral.",
        sources: [Sources.backgroundModes])

    /// UIRequiredDeviceCapabilities lists bluetooth-le.
    package static let iosRequiredCapability = Rule(
        id: "IOS007", name: "RequiredCapabilityBluetoothLE", platform: .ios, severity: .info,
        summary: "UIRequiredDeviceCapabilities contains bluetooth-le.",
        help: "Every device that runs a current iOS has Bluetooth LE, and Apple does not document that the App Store filters installs by this capability (unlike Google Play's uses-feature); it adds nothing but cannot be removed from later versions of the app.",
        sources: [Sources.deviceCapabilities])

    /// The `--explain` note on the iOS permission prompt.
    package static let iosExplain = Rule(
        id: "IOS008", name: "PermissionPromptTiming", platform: .ios, severity: .info,
        summary: "How and when iOS asks for Bluetooth permission (shown with --explain).",
        help: "iOS shows the Bluetooth prompt, with your usage description, the first time the app creates a CBCentralManager or CBPeripheralManager; a denial is final until the user changes it in Settings. Create the manager when the user asks for a Bluetooth feature, not at launch, and read CBManager.authorization first.",
        sources: [Sources.cbManagerAuthorization, Sources.alwaysKey])

    // MARK: Android

    /// Scanning on Android 12+ without BLUETOOTH_SCAN.
    package static let androidScanPermissionMissing = Rule(
        id: "AND001", name: "BluetoothScanMissing", platform: .android, severity: .error,
        summary: "Targets API 31+ and scans, but BLUETOOTH_SCAN is not requested on Android 12 and later.",
        help: "On Android 12+ an app targeting 31+ needs BLUETOOTH_SCAN to discover devices; startScan throws a SecurityException without it.",
        sources: [Sources.androidPermissions, Sources.startScan])

    /// Connecting on Android 12+ without BLUETOOTH_CONNECT.
    package static let androidConnectPermissionMissing = Rule(
        id: "AND002", name: "BluetoothConnectMissing", platform: .android, severity: .error,
        summary: "Targets API 31+ and connects, but BLUETOOTH_CONNECT is not requested on Android 12 and later.",
        help: "On Android 12+ an app targeting 31+ needs BLUETOOTH_CONNECT to connect to or talk to a paired device.",
        sources: [Sources.androidPermissions])

    /// Advertising on Android 12+ without BLUETOOTH_ADVERTISE.
    package static let androidAdvertisePermissionMissing = Rule(
        id: "AND003", name: "BluetoothAdvertiseMissing", platform: .android, severity: .error,
        summary: "Targets API 31+ and advertises, but BLUETOOTH_ADVERTISE is not requested on Android 12 and later.",
        help: "On Android 12+ an app targeting 31+ needs BLUETOOTH_ADVERTISE to advertise or be discoverable.",
        sources: [Sources.androidPermissions, Sources.startAdvertising])

    /// Legacy permissions not capped at maxSdkVersion 30.
    package static let androidLegacyNotCapped = Rule(
        id: "AND004", name: "LegacyPermissionNotCapped", platform: .android, severity: .warning,
        summary: "BLUETOOTH or BLUETOOTH_ADMIN lacks android:maxSdkVersion=\"30\" while targeting API 31+.",
        help: "Android 12 and later should be granted only the new runtime permissions; cap the old ones with android:maxSdkVersion=\"30\".",
        sources: [Sources.androidPermissions])

    /// Legacy permissions missing for Android 11 and lower.
    package static let androidLegacyMissing = Rule(
        id: "AND005", name: "LegacyPermissionMissing", platform: .android, severity: .error,
        summary: "Runs on Android 11 or lower but lacks BLUETOOTH (and BLUETOOTH_ADMIN for scanning or advertising) there.",
        help: "Up to API 30 (and on any version when targeting 30 or lower) every Bluetooth call needs BLUETOOTH, and startScan and startAdvertising also need BLUETOOTH_ADMIN.",
        sources: [Sources.androidPermissions, Sources.startScan, Sources.startAdvertising])

    /// Scanning on Android 11 and lower without a location permission.
    package static let androidLegacyLocationMissing = Rule(
        id: "AND006", name: "ScanLocationMissing", platform: .android, severity: .error,
        summary: "Scans on Android 11 or lower without ACCESS_FINE_LOCATION (ACCESS_COARSE_LOCATION suffices when targeting 28 or lower).",
        help: "Android 6 to 11 return no scan results to an app without a location permission: the scan silently finds nothing.",
        sources: [Sources.androidPermissions, Sources.startScan])

    /// BLUETOOTH_SCAN with neither neverForLocation nor fine location.
    package static let androidScanWithoutLocationStance = Rule(
        id: "AND007", name: "ScanLocationStanceMissing", platform: .android, severity: .warning,
        summary: "BLUETOOTH_SCAN has neither android:usesPermissionFlags=\"neverForLocation\" nor ACCESS_FINE_LOCATION on Android 12+.",
        help: "Without neverForLocation Android 12+ treats a scan as location access and filters results unless ACCESS_FINE_LOCATION is granted. Assert neverForLocation if the app never derives location from scans, or request ACCESS_FINE_LOCATION.",
        sources: [Sources.androidPermissions])

    /// neverForLocation while deriving location.
    package static let androidNeverForLocationContradiction = Rule(
        id: "AND008", name: "NeverForLocationButDerivesLocation", platform: .android, severity: .error,
        summary: "BLUETOOTH_SCAN asserts neverForLocation, but the app derives location from scans (--uses location).",
        help: "neverForLocation is a promise never to derive physical location from scan results; remove it and request ACCESS_FINE_LOCATION.",
        sources: [Sources.androidPermissions])

    /// neverForLocation while scanning for beacons.
    package static let androidNeverForLocationBeacons = Rule(
        id: "AND009", name: "NeverForLocationFiltersBeacons", platform: .android, severity: .warning,
        summary: "BLUETOOTH_SCAN asserts neverForLocation and the app looks for beacons.",
        help: "With neverForLocation some BLE beacons are filtered from the scan results. Drop the flag and request ACCESS_FINE_LOCATION if the app needs beacons.",
        sources: [Sources.androidPermissions])

    /// neverForLocation with an uncapped ACCESS_FINE_LOCATION.
    package static let androidFineLocationNotCapped = Rule(
        id: "AND010", name: "FineLocationNotCapped", platform: .android, severity: .warning,
        summary: "BLUETOOTH_SCAN asserts neverForLocation but ACCESS_FINE_LOCATION is not capped at android:maxSdkVersion=\"30\".",
        help: "With neverForLocation Android 12+ needs no location permission to scan; cap ACCESS_FINE_LOCATION at 30 unless the app needs location for something other than Bluetooth.",
        sources: [Sources.androidPermissions])

    /// A background service that discovers devices without ACCESS_BACKGROUND_LOCATION.
    package static let androidBackgroundLocationMissing = Rule(
        id: "AND011", name: "BackgroundLocationMissing", platform: .android, severity: .error,
        summary: "A service discovers devices on Android 10 or 11 without ACCESS_BACKGROUND_LOCATION.",
        help: "On Android 10 and 11 (API 29 and 30), and on later versions when targeting 30 or lower, a service cannot discover Bluetooth devices unless the app has ACCESS_BACKGROUND_LOCATION.",
        sources: [Sources.androidPermissions])

    /// No uses-feature for bluetooth_le.
    package static let androidFeatureMissing = Rule(
        id: "AND012", name: "BluetoothLEFeatureMissing", platform: .android, severity: .warning,
        summary: "No <uses-feature android:name=\"android.hardware.bluetooth_le\">.",
        help: "Declare the feature: android:required=\"true\" if Bluetooth LE is core to the app, or \"false\" plus a runtime PackageManager.hasSystemFeature(FEATURE_BLUETOOTH_LE) check if it is a bonus.",
        sources: [Sources.androidPermissions, Sources.usesFeature])

    /// uses-feature bluetooth_le required.
    package static let androidFeatureRequired = Rule(
        id: "AND013", name: "BluetoothLEFeatureRequired", platform: .android, severity: .info,
        summary: "android.hardware.bluetooth_le is required (android:required absent or \"true\").",
        help: "Google Play hides the app from devices without Bluetooth LE; use android:required=\"false\" and a runtime check if the app is useful without it.",
        sources: [Sources.usesFeature])

    /// Pairing with one accessory while requesting location.
    package static let androidCompanionInsteadOfLocation = Rule(
        id: "AND014", name: "CompanionDeviceManagerAvailable", platform: .android, severity: .info,
        summary: "The app pairs with one accessory and requests location permissions.",
        help: "Companion Device Manager (API 26+) scans and pairs on the app's behalf without location or scan permissions.",
        sources: [Sources.companion, Sources.androidPermissions])

    /// Unknown android.permission.BLUETOOTH* name.
    package static let androidUnknownPermission = Rule(
        id: "AND015", name: "UnknownBluetoothPermission", platform: .android, severity: .error,
        summary: "An android.permission.BLUETOOTH* permission name that Android does not define.",
        help: "A misspelt permission is silently never granted. The names are BLUETOOTH, BLUETOOTH_ADMIN, BLUETOOTH_SCAN, BLUETOOTH_CONNECT, BLUETOOTH_ADVERTISE (and the system-only BLUETOOTH_PRIVILEGED).",
        sources: [Sources.manifestPermission, Sources.androidPermissions])

    /// usesPermissionFlags on the wrong permission, or an unknown flag.
    package static let androidMisplacedFlags = Rule(
        id: "AND016", name: "UsesPermissionFlagsMisplaced", platform: .android, severity: .error,
        summary: "android:usesPermissionFlags on a permission that does not take it, or with an unknown flag.",
        help: "Only neverForLocation exists, and only BLUETOOTH_SCAN (and NEARBY_WIFI_DEVICES) take it; elsewhere it asserts nothing.",
        sources: [Sources.usesPermission, Sources.androidPermissions])

    /// The `--explain` note on the Nearby devices prompt.
    package static let androidExplain = Rule(
        id: "AND017", name: "NearbyDevicesPrompt", platform: .android, severity: .info,
        summary: "How Android asks for the Bluetooth runtime permissions (shown with --explain).",
        help: "BLUETOOTH_SCAN, BLUETOOTH_CONNECT and BLUETOOTH_ADVERTISE share one \"Nearby devices\" prompt; after a second denial Android stops showing it and the user must go to Settings. Request them when the user presses Connect (or starts the Bluetooth feature), not at launch, and explain first if shouldShowRequestPermissionRationale says so.",
        sources: [Sources.androidPermissions, Sources.runtimePermissions])

    /// All iOS rules in ID order.
    package static let ios: [Rule] = [
        iosAlwaysUsageMissing, iosPeripheralUsageMissing, iosPeripheralUsageDeprecated, iosUselessUsageDescription,
        iosBackgroundModeMissing, iosBackgroundModeMisspelt, iosRequiredCapability, iosExplain,
    ]

    /// All Android rules in ID order.
    package static let android: [Rule] = [
        androidScanPermissionMissing, androidConnectPermissionMissing, androidAdvertisePermissionMissing,
        androidLegacyNotCapped, androidLegacyMissing, androidLegacyLocationMissing, androidScanWithoutLocationStance,
        androidNeverForLocationContradiction, androidNeverForLocationBeacons, androidFineLocationNotCapped,
        androidBackgroundLocationMissing, androidFeatureMissing, androidFeatureRequired, androidCompanionInsteadOfLocation,
        androidUnknownPermission, androidMisplacedFlags, androidExplain,
    ]

    /// Every rule.
    package static let all: [Rule] = ios + android

    /// The rule with this ID, if any.
    package static func rule(id: String) -> Rule? {
        all.first { $0.id == id }
    }
}
