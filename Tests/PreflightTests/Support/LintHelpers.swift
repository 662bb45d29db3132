import Foundation
@testable import Preflight

/// Builders and shorthands for rule tests.
enum Lint {
    /// An XML Info.plist holding `entries` (already-formatted `<key>…</key><value/>` pairs).
    static func plist(_ entries: String) -> Data {
        Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(entries)
        </dict>
        </plist>
        """.utf8)
    }

    static let goodAlways = "<key>NSBluetoothAlwaysUsageDescription</key><string>Connects to your heart-rate strap to record workouts.</string>"
    static let goodPeripheral = "<key>NSBluetoothPeripheralUsageDescription</key><string>Connects to your heart-rate strap to record workouts.</string>"

    static func ios(_ entries: String, target: String? = nil, uses: Set<IOSUse>? = [.central], explain: Bool = false) throws -> Report {
        try Preflight.lintIOS(data: plist(entries), name: "Info.plist",
                              options: IOSOptions(deploymentTarget: target.flatMap(OSVersion.init), uses: uses, explain: explain))
    }

    /// A text AndroidManifest.xml with `body` inside `<manifest>`; `sdk` nil omits `<uses-sdk>`.
    static func manifest(_ body: String, sdk: (min: Int, target: Int)? = (23, 34)) -> Data {
        let usesSdk = sdk.map { "<uses-sdk android:minSdkVersion=\"\($0.min)\" android:targetSdkVersion=\"\($0.target)\"/>" } ?? ""
        return Data("""
        <?xml version="1.0" encoding="utf-8"?>
        <manifest xmlns:android="http://schemas.android.com/apk/res/android"
            xmlns:tools="http://schemas.android.com/tools" package="com.example.app">
            \(usesSdk)
        \(body)
            <application android:label="App"/>
        </manifest>
        """.utf8)
    }

    static func permission(_ short: String, _ extra: String = "") -> String {
        "    <uses-permission android:name=\"android.permission.\(short)\" \(extra)/>"
    }

    static let feature = "    <uses-feature android:name=\"android.hardware.bluetooth_le\" android:required=\"false\"/>"

    /// A manifest that passes every rule for scan+connect at min 23, target 34.
    static let modernBody = [
        permission("BLUETOOTH", "android:maxSdkVersion=\"30\""),
        permission("BLUETOOTH_ADMIN", "android:maxSdkVersion=\"30\""),
        permission("ACCESS_FINE_LOCATION", "android:maxSdkVersion=\"30\""),
        permission("BLUETOOTH_SCAN", "android:usesPermissionFlags=\"neverForLocation\""),
        permission("BLUETOOTH_CONNECT"),
        feature,
    ].joined(separator: "\n")

    static func android(_ body: String, sdk: (min: Int, target: Int)? = (23, 34), uses: Set<AndroidUse>? = [.scan, .connect],
                        minSdk: Int? = nil, targetSdk: Int? = nil, explain: Bool = false) throws -> Report {
        try Preflight.lintAndroid(data: manifest(body, sdk: sdk), name: "AndroidManifest.xml",
                                  options: AndroidOptions(minSdk: minSdk, targetSdk: targetSdk, uses: uses, explain: explain))
    }
}

extension Report {
    /// The IDs of the findings, sorted.
    var ids: [String] { findings.map(\.rule.id).sorted() }

    /// The findings of one rule.
    func findings(_ id: String) -> [Finding] { findings.filter { $0.rule.id == id } }
}
