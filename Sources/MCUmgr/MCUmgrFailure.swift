/// A request the device refused, as MCUmgr SMP names it: a version 1 return code (`rc`, the SMP errors shared
/// by every group) or a version 2 group error (`err: {group, rc}`, the group's own codes).
package enum MCUmgrFailure: Sendable, Hashable, CustomStringConvertible {
    /// `rc` (MGMT_ERR), with the device's `rsn` when it gave one.
    case returnCode(MCUmgrReturnCode, reason: String?)
    /// `err: {group, rc}`.
    case group(MCUmgrGroupError)

    package var description: String {
        switch self {
        case .returnCode(let code, let reason): "rc \(code)" + (reason.map { " (\($0))" } ?? "")
        case .group(let error): error.description
        }
    }
}

/// An SMP return code (MGMT_ERR), the codes every group shares.
package struct MCUmgrReturnCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package var rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    package static let ok = Self(rawValue: 0)
    package static let unknown = Self(rawValue: 1)
    package static let noMemory = Self(rawValue: 2)
    package static let invalid = Self(rawValue: 3)
    package static let timeout = Self(rawValue: 4)
    package static let noEntry = Self(rawValue: 5)
    package static let badState = Self(rawValue: 6)
    package static let messageTooLarge = Self(rawValue: 7)
    package static let notSupported = Self(rawValue: 8)
    package static let corrupt = Self(rawValue: 9)
    package static let busy = Self(rawValue: 10)
    package static let accessDenied = Self(rawValue: 11)
    package static let versionTooOld = Self(rawValue: 12)
    package static let versionTooNew = Self(rawValue: 13)

    /// The name Zephyr's `mcumgr_err_t` gives the code.
    static let names = ["EOK", "EUNKNOWN", "ENOMEM", "EINVAL", "ETIMEOUT", "ENOENT", "EBADSTATE", "EMSGSIZE", "ENOTSUP",
                        "ECORRUPT", "EBUSY", "EACCESSDENIED", "UNSUPPORTED_TOO_OLD", "UNSUPPORTED_TOO_NEW"]

    package var description: String {
        if Self.names.indices.contains(rawValue) { return "\(rawValue) \(Self.names[rawValue])" }
        return rawValue >= 256 ? "\(rawValue) (user error \(rawValue - 256))" : "\(rawValue)"
    }
}

/// A version 2 group error: the group that failed and its own code.
package struct MCUmgrGroupError: Error, Sendable, Hashable, CustomStringConvertible {
    package var group: MCUmgrGroup
    package var rc: Int

    package init(group: MCUmgrGroup, rc: Int) {
        self.group = group
        self.rc = rc
    }

    /// An image management error.
    package static func image(_ rc: Int) -> MCUmgrGroupError { MCUmgrGroupError(group: .image, rc: rc) }

    /// Image management's codes (Zephyr's `img_mgmt_err_code_t`).
    package enum Image {
        package static let noImage = 3
        package static let hashNotFound = 8
        package static let invalidSlot = 14
        package static let invalidOffset = 20
        package static let invalidLength = 21
        package static let invalidHash = 24
        package static let imageAlreadyPending = 28
        package static let invalidImageTooLarge = 30
        package static let dataOverrun = 31
        package static let confirmationDenied = 32
        package static let settingTestToActiveDenied = 33

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
    package enum OS {
        static let names = ["OK", "UNKNOWN", "INVALID_FORMAT", "QUERY_YIELDS_NO_ANSWER", "RTC_NOT_SET", "RTC_COMMAND_FAILED"]
    }

    /// The group's name for the code, when this module knows the group and the code.
    package var name: String? {
        let names = switch group {
        case .image: Image.names
        case .os: OS.names
        default: [String]()
        }
        return names.indices.contains(rc) ? names[rc] : nil
    }

    package var description: String { "\(group) error \(rc)" + (name.map { " \($0)" } ?? "") }
}
