/// What an iOS app does with Bluetooth, as `--uses` names it.
package enum IOSUse: String, Sendable, Hashable, CaseIterable, Codable {
    /// Talks to accessories (CBCentralManager).
    case central
    /// Acts as an accessory (CBPeripheralManager).
    case peripheral
    /// Keeps talking to accessories while in the background.
    case backgroundCentral = "background-central"
    /// Keeps acting as an accessory while in the background.
    case backgroundPeripheral = "background-peripheral"
}

/// How to lint an Info.plist.
package struct IOSOptions: Sendable {
    /// The deployment target; nil reads `MinimumOSVersion` from the plist (as in a built app).
    package var deploymentTarget: OSVersion?
    /// What the app does; nil infers background use from `UIBackgroundModes` and says so.
    package var uses: Set<IOSUse>?
    /// Adds the once-per-run explanation of the permission prompt (IOS008).
    package var explain: Bool

    package init(deploymentTarget: OSVersion? = nil, uses: Set<IOSUse>? = nil, explain: Bool = false) {
        self.deploymentTarget = deploymentTarget
        self.uses = uses
        self.explain = explain
    }
}
