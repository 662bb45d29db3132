/// The platform whose declarations are linted.
package enum Platform: String, Sendable, Hashable, Codable, CaseIterable {
    /// An iOS app: its Info.plist, or an `.ipa` holding it.
    case ios
    /// An Android app: its AndroidManifest.xml (text or binary), or an `.apk` holding it.
    case android

    /// The name people use for it.
    package var displayName: String {
        switch self {
        case .ios: "iOS"
        case .android: "Android"
        }
    }
}
