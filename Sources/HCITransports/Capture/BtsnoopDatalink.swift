/// The datalink of a btsnoop file (its header's second field), as Wireshark's wiretap and BlueZ's btsnoop read it.
public enum BtsnoopDatalink: UInt32, Sendable, Hashable {
    /// UART (H4) framing: each record is one packet with its H4 indicator first; the record's flags say
    /// its direction and whether it is a command or event. One controller, no notes.
    case h4 = 1002
    /// The Linux Bluetooth monitor (what `btmon -w` writes): each record's flags carry a controller index
    /// and a `MonitorOpcode`, so one file holds several controllers, their coming and going, and text
    /// notes (Wireshark: `hci_mon.adapter_id`, `hci_mon.opcode`, `hci_mon.system_note`).
    case monitor = 2001
}
