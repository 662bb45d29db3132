/// A request the device refused, as MCUmgr SMP names it: a version 1 return code (`rc`, the SMP errors shared
/// by every group) or a version 2 group error (`err: {group, rc}`, the group's own codes).
public enum MCUmgrFailure: Sendable, Hashable, CustomStringConvertible {
    /// `rc` (MGMT_ERR), with the device's `rsn` when it gave one.
    case returnCode(MCUmgrReturnCode, reason: String?)
    /// `err: {group, rc}`.
    case group(MCUmgrGroupError)

    public var description: String {
        switch self {
        case .returnCode(let code, let reason): "rc \(code)" + (reason.map { " (\($0))" } ?? "")
        case .group(let error): error.description
        }
    }
}

/// An SMP return code (MGMT_ERR), the codes every group shares.
public struct MCUmgrReturnCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let ok = Self(rawValue: 0)
    public static let unknown = Self(rawValue: 1)
    public static let noMemory = Self(rawValue: 2)
    public static let invalid = Self(rawValue: 3)
    public static let timeout = Self(rawValue: 4)
    public static let noEntry = Self(rawValue: 5)
    public static let badState = Self(rawValue: 6)
    public static let messageTooLarge = Self(rawValue: 7)
    public static let notSupported = Self(rawValue: 8)
    public static let corrupt = Self(rawValue: 9)
    public static let busy = Self(rawValue: 10)
    public static let accessDenied = Self(rawValue: 11)
    public static let versionTooOld = Self(rawValue: 12)
    public static let versionTooNew = Self(rawValue: 13)

    /// The name Zephyr's `mcumgr_err_t` gives the code.
    static let names = ["EOK", "EUNKNOWN", "ENOMEM", "EINVAL", "ETIMEOUT", "ENOENT", "EBADSTATE", "EMSGSIZE", "ENOTSUP",
                        "ECORRUPT", "EBUSY", "EACCESSDENIED", "UNSUPPORTED_TOO_OLD", "UNSUPPORTED_TOO_NEW"]

    public var description: String {
        if Self.names.indices.contains(rawValue) { return "\(rawValue) \(Self.names[rawValue])" }
        return rawValue >= 256 ? "\(rawValue) (user error \(rawValue - 256))" : "\(rawValue)"
    }
}

/// A version 2 group error: the group that failed and its own code.
public struct MCUmgrGroupError: Error, Sendable, Hashable, CustomStringConvertible {
    public var group: MCUmgrGroup
    public var rc: Int

    public init(group: MCUmgrGroup, rc: Int) {
        self.group = group
        self.rc = rc
    }

    /// An image management error.
    public static func image(_ rc: Int) -> MCUmgrGroupError { MCUmgrGroupError(group: .image, rc: rc) }

    /// Image management's codes (Zephyr's `img_mgmt_err_code_t`).
    public enum Image {
        public static let noImage = 3
        public static let hashNotFound = 8
        public static let invalidSlot = 14
        public static let invalidOffset = 20
        public static let invalidLength = 21
        public static let invalidHash = 24
        public static let imageAlreadyPending = 28
        public static let invalidImageTooLarge = 30
        public static let dataOverrun = 31
        public static let confirmationDenied = 32
        public static let settingTestToActiveDenied = 33

        static let names = ["OK", "UNKNOWN", "FLASH_CONFIG_QUERY_FAIL", "NO_IMAGE", "NO_TLVS", "INVALID_TLV",
                            "TLV_MULTIPLE_HASHES_FOUND", "TLV_INVALID_SIZE", "HASH_NOT_FOUND", "NO_FREE_SLOT",
                            "FLASH_OPEN_FAILED", "FLASH_READ_FAILED", "FLASH_WRITE_FAILED", "FLASH_ERASE_FAILED",
                            "INVALID_SLOT", "NO_FREE_MEMORY", "FLASH_CONTEXT_ALREADY_SET", "FLASH_CONTEXT_NOT_SET",
                            "FLASH_AREA_DEVICE_NULL", "INVALID_PAGE_OFFSET", "INVALID_OFFSET", "INVALID_LENGTH",
                            "INVALID_IMAGE_HEADER", "INVALID_IMAGE_HEADER_MAGIC", "INVALID_HASH", "INVALID_FLASH_ADDRESS",
                            "VERSION_GET_FAILED", "CURRENT_VERSION_IS_NEWER", "IMAGE_ALREADY_PENDING",
                            "INVALID_IMAGE_VECTOR_TABLE", "INVALID_IMAGE_TOO_LARGE", "INVALID_IMAGE_DATA_OVERRUN",
                            "IMAGE_CONFIRMATION_DENIED", "IMAGE_SETTING_TEST_TO_ACTIVE_DENIED"]
    }

    /// OS management's codes (Zephyr's `os_mgmt_err_code_t`).
    public enum OS {
        static let names = ["OK", "UNKNOWN", "INVALID_FORMAT", "QUERY_YIELDS_NO_ANSWER", "RTC_NOT_SET", "RTC_COMMAND_FAILED"]
    }

    /// The group's name for the code, when this module knows the group and the code.
    public var name: String? {
        let names = switch group {
        case .image: Image.names
        case .os: OS.names
        default: [String]()
        }
        return names.indices.contains(rc) ? names[rc] : nil
    }

    public var description: String { "\(group) error \(rc)" + (name.map { " \($0)" } ?? "") }
}
