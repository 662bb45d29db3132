/// What an Android app does with Bluetooth, as `--uses` names it.
package enum AndroidUse: String, Sendable, Hashable, CaseIterable, Codable {
    /// Discovers devices (BluetoothLeScanner.startScan, startDiscovery).
    case scan
    /// Connects to or talks to devices (connectGatt, bonded devices).
    case connect
    /// Advertises or makes the device discoverable.
    case advertise
    /// Derives the device's physical location from scan results.
    case location
    /// Looks for BLE beacons.
    case beacons
    /// Discovers devices from a service while in the background.
    case background
    /// Pairs with one accessory (a companion device).
    case companion
}

/// How to lint an AndroidManifest.xml.
package struct AndroidOptions: Sendable {
    /// minSdkVersion; nil reads `<uses-sdk>`.
    package var minSdk: Int?
    /// targetSdkVersion; nil reads `<uses-sdk>`.
    package var targetSdk: Int?
    /// What the app does; nil infers it from the declarations and says so.
    package var uses: Set<AndroidUse>?
    /// Adds the once-per-run explanation of the Nearby devices prompt (AND017).
    package var explain: Bool

    package init(minSdk: Int? = nil, targetSdk: Int? = nil, uses: Set<AndroidUse>? = nil, explain: Bool = false) {
        self.minSdk = minSdk
        self.targetSdk = targetSdk
        self.uses = uses
        self.explain = explain
    }
}
