/// What an Android app does with Bluetooth, as `--uses` names it.
public enum AndroidUse: String, Sendable, Hashable, CaseIterable, Codable {
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
public struct AndroidOptions: Sendable {
    /// minSdkVersion; nil reads `<uses-sdk>`.
    public var minSdk: Int?
    /// targetSdkVersion; nil reads `<uses-sdk>`.
    public var targetSdk: Int?
    /// What the app does; nil infers it from the declarations and says so.
    public var uses: Set<AndroidUse>?
    /// Adds the once-per-run explanation of the Nearby devices prompt (AND017).
    public var explain: Bool

    public init(minSdk: Int? = nil, targetSdk: Int? = nil, uses: Set<AndroidUse>? = nil, explain: Bool = false) {
        self.minSdk = minSdk
        self.targetSdk = targetSdk
        self.uses = uses
        self.explain = explain
    }
}
