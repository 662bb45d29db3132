/// Android permission names the lint knows.
enum AndroidPermissions {
    static let prefix = "android.permission."
    static let bluetooth = prefix + "BLUETOOTH"
    static let bluetoothAdmin = prefix + "BLUETOOTH_ADMIN"
    static let bluetoothScan = prefix + "BLUETOOTH_SCAN"
    static let bluetoothConnect = prefix + "BLUETOOTH_CONNECT"
    static let bluetoothAdvertise = prefix + "BLUETOOTH_ADVERTISE"
    static let bluetoothPrivileged = prefix + "BLUETOOTH_PRIVILEGED"
    static let fineLocation = prefix + "ACCESS_FINE_LOCATION"
    static let coarseLocation = prefix + "ACCESS_COARSE_LOCATION"
    static let backgroundLocation = prefix + "ACCESS_BACKGROUND_LOCATION"
    static let nearbyWifiDevices = prefix + "NEARBY_WIFI_DEVICES"

    /// Every `android.permission.BLUETOOTH*` the platform defines (public, and the system-only ones apps may still list).
    static let knownBluetooth: Set<String> = [
        bluetooth, bluetoothAdmin, bluetoothScan, bluetoothConnect, bluetoothAdvertise, bluetoothPrivileged,
        prefix + "BLUETOOTH_MAP", prefix + "BLUETOOTH_STACK",
    ]

    /// Permissions that take `android:usesPermissionFlags`.
    static let takeUsesPermissionFlags: Set<String> = [bluetoothScan, nearbyWifiDevices]

    /// The flags `android:usesPermissionFlags` accepts.
    static let knownUsesPermissionFlags: Set<String> = ["neverForLocation"]

    /// Companion Device Manager permissions (their presence means the app pairs through CDM).
    static func isCompanion(_ name: String) -> Bool {
        name.hasPrefix(prefix + "REQUEST_COMPANION_")
    }

    /// True for names that claim to be a platform Bluetooth permission (any case, or the common `permissions.` slip).
    static func looksLikePlatformBluetooth(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasPrefix("android.permission.bluetooth") || lowered.hasPrefix("android.permissions.bluetooth")
            || lowered.hasPrefix("android.permission.blutooth")
    }

    /// The known Bluetooth permission closest to a misspelt one.
    static func nearestBluetooth(to name: String) -> String {
        let upper = name.uppercased()
        return knownBluetooth.filter { !$0.hasSuffix("_MAP") && !$0.hasSuffix("_STACK") }.min { a, b in
            let da = EditDistance.between(upper, a.uppercased()), db = EditDistance.between(upper, b.uppercased())
            return da != db ? da < db : a < b
        } ?? bluetooth
    }
}
