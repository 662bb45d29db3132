import HCITransports

/// Where a host opened on an adapter captures its packets.
public enum CaptureTarget: Sendable {
    /// A btsnoop file of its own (H4 datalink), created at the open (mode 0600, replacing one already there):
    /// `hil info --capture`; `keys` says whether the keys that pass are redacted or kept (`--capture-keys`).
    case file(String, keys: CaptureKeys = .redacted)
    /// One controller index of a test case's monitor capture, which outlives the host: a reopened adapter
    /// (after a USB reset or a power cycle) goes on in the same file.
    case controller(MonitorCapture.Controller)
}
