import Foundation

/// A rig with every kind of power switch and names that would be template syntax, comments or YAML
/// indicators if written unquoted: what `hil lab export`'s tests export and hand to labgrid.
public enum SampleLabRig {
    /// Its adapter is `adapter` (default `usb:2fe3:000b/HIL01`). Ports: hub 1-1.4 port 2 powers
    /// "thermo meter {{x}}", port 3 the accessory named "adapter"; root hub 2 port 1 the adapter; YKUSH
    /// (a serial full of `#`, `{{`, quotes, a backslash, U+2028 and U+0001) port 1 "strap", port 2 spare;
    /// a YKUSH without serial, port 3 spare; a dcttech relay port 2 "lock", port 1 spare; a command
    /// switch ("plug"); a process switch ("emu").
    public static func json(adapter: String = "usb:2fe3:000b/HIL01") -> String {
        """
        {
          "name": "bench {{ 7*7 }} #1 {% raw %}",
          "adapter": {"moniker": "\(adapter)", "power": {"switch": "root-hub", "port": 1}},
          "powerSwitches": [
            {"name": "hub", "kind": "usb-hub", "hub": "1-1.4", "ports": [2, 3], "verify": "none"},
            {"name": "root-hub", "kind": "usb-hub", "hub": "2", "ports": [1], "verify": "none"},
            {"name": "ykush", "kind": "ykush", "serial": "\(ykushSerialJSON)", "ports": [1, 2], "verify": "none"},
            {"name": "only-ykush", "kind": "ykush", "ports": [3], "verify": "none"},
            {"name": "relay", "kind": "relay", "vendor": "dcttech", "serial": "ABCDE", "ports": [1, 2], "verify": "none"},
            {"name": "pdu", "kind": "command", "on": ["pdu", "on"], "off": ["pdu", "off"], "verify": "none"},
            {"name": "emulator", "kind": "process", "argv": ["sleep", "100"], "verify": "none"}
          ],
          "accessories": [
            {"name": "thermo meter {{x}}", "match": {"name": "T"}, "power": {"switch": "hub", "port": 2}},
            {"name": "strap", "match": {"name": "S"}, "power": {"switch": "ykush", "port": 1}},
            {"name": "lock", "match": {"name": "L"}, "power": {"switch": "relay", "port": 2}},
            {"name": "plug", "match": {"name": "P"}, "power": {"switch": "pdu", "port": 1}},
            {"name": "emu", "match": {"name": "E"}, "power": {"switch": "emulator", "port": 1}},
            {"name": "adapter", "match": {"name": "A"}, "power": {"switch": "hub", "port": 3}}
          ]
        }
        """
    }

    /// The YKUSH serial as the rig's JSON writes it, and as it must read back.
    static let ykushSerialJSON = #"YK#{{x}}{#c#}\"\\\u2028\u0001é"#
    public static let ykushSerial = "YK#{{x}}{#c#}\"\\\u{2028}\u{1}é"

    /// Writes the rig into `directory` as `every-kind.json`; returns its path.
    public static func write(into directory: URL, adapter: String = "usb:2fe3:000b/HIL01") throws -> String {
        let file = directory.appendingPathComponent("every-kind.json")
        try json(adapter: adapter).write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
