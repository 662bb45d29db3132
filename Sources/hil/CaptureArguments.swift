import HCITransports

/// `--capture FILE` and `--capture-keys`: where a command writes its btsnoop capture, and whether the keys
/// that pass are kept in it. By default they are redacted (`CaptureKeys`): a capture is shared and attached
/// to tickets; a lab whose Wireshark decrypts the link asks for the keys.
struct CaptureArguments {
    /// `--capture FILE`, if given.
    let path: String?
    /// `.kept` with `--capture-keys`.
    let keys: CaptureKeys

    /// Reads both options. `--capture-keys` with nothing to capture is a usage error, unless the command
    /// always writes a capture (`alwaysCaptures`: `hil accessory`).
    static func parse(_ arguments: inout Arguments, alwaysCaptures: Bool = false) throws(UsageError) -> CaptureArguments {
        let path = try arguments.option("capture")
        let keep = arguments.flag("capture-keys")
        if keep, path == nil, !alwaysCaptures { throw UsageError("--capture-keys keeps the keys in a capture: give --capture FILE too") }
        return CaptureArguments(path: path, keys: keep ? .kept : .redacted)
    }
}
