import DeviceControl
#if canImport(Glibc)
import Glibc
#endif

/// Kernel Bluetooth sockets: what `hci-socket:` needs.
package struct KernelBluetoothCheck: DoctorCheck {
    package let name = "kernel-bluetooth"
    package init() {}

    package func run(_ environment: DoctorEnvironment) -> [DoctorFinding] {
        let loaded = environment.exists("/sys/module/bluetooth") || environment.exists("/sys/class/bluetooth")
        let moduleDirectory = "/lib/modules/\(environment.kernelRelease)/kernel/net/bluetooth"
        let available = environment.list(moduleDirectory).contains { $0.hasPrefix("bluetooth.ko") }
        switch environment.bluetoothSocketErrno {
        case .some(0):
            return [finding(.ok, "AF_BLUETOOTH sockets work: hci-socket: adapters can be used")]
        case .some(let code) where code != EAFNOSUPPORT && code != EPROTONOSUPPORT:
            return [finding(.warning, "socket(AF_BLUETOOTH) fails with errno \(code) (\(String(cString: strerror(code))))",
                            fix: "run hil as root or with CAP_NET_ADMIN; inside a container, use usb: adapters")]
        default:
            if loaded && environment.bluetoothSocketErrno == nil {
                return [finding(.ok, "the bluetooth module is loaded: hci-socket: adapters can be used")]
            }
            if available {
                return [finding(.warning, "the kernel's Bluetooth module is not loaded: hci-socket: fails with EAFNOSUPPORT",
                                fix: "sudo modprobe bluetooth btusb (usb: adapters work without it)")]
            }
            return [finding(.warning,
                            "this kernel (\(environment.kernelRelease)) has no Bluetooth support: hci-socket: is unavailable",
                            fix: "use usb: monikers (libusb needs no kernel Bluetooth), or boot a kernel built with CONFIG_BT")]
        }
    }
}

/// bluetoothd powers adapters on and holds them: `hci-socket:` then fails with EBUSY.
package struct BluetoothdCheck: DoctorCheck {
    package let name = "bluetoothd"
    package init() {}

    package func run(_ environment: DoctorEnvironment) -> [DoctorFinding] {
        let pids = environment.list("/proc").filter { $0.allSatisfy(\.isNumber) }
            .filter { environment.read("/proc/\($0)/comm") == "bluetoothd" }
        guard !pids.isEmpty else {
            return [finding(.ok, "bluetoothd is not running: nothing powers adapters behind the bench's back")]
        }
        let adapters = environment.hciAdapters().map(\.name)
        let holding = adapters.isEmpty ? "" : " and manages \(adapters.joined(separator: ", "))"
        return [finding(.warning,
                        "bluetoothd (pid \(pids.joined(separator: ", "))) is running\(holding): it powers adapters back on, so binding hci-socket: fails with EBUSY",
                        fix: "sudo systemctl stop bluetooth (keep it off on a bench: sudo systemctl disable bluetooth), or use usb: monikers")]
    }
}

/// rfkill blocks.
package struct RfkillCheck: DoctorCheck {
    package let name = "rfkill"
    package init() {}

    package func run(_ environment: DoctorEnvironment) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        for entry in environment.list("/sys/class/rfkill") {
            let directory = "/sys/class/rfkill/\(entry)"
            guard environment.read("\(directory)/type") == "bluetooth" else { continue }
            let label = environment.read("\(directory)/name").map { "\(entry) (\($0))" } ?? entry
            if environment.read("\(directory)/hard") == "1" {
                findings.append(finding(.error, "\(label) is hard-blocked: a hardware switch or the firmware turned the radio off",
                                        fix: "flip the machine's wireless switch or enable Bluetooth in the firmware setup"))
            } else if environment.read("\(directory)/soft") == "1" {
                findings.append(finding(.error, "\(label) is soft-blocked: the adapter cannot be powered on",
                                        fix: "sudo rfkill unblock bluetooth"))
            } else {
                findings.append(finding(.ok, "\(label) is not blocked"))
            }
        }
        if findings.isEmpty { findings.append(finding(.ok, "no Bluetooth rfkill switch is blocked")) }
        return findings
    }
}

/// Permissions on the usbfs nodes of the adapters, and the udev rules that fix them.
package struct USBPermissionsCheck: DoctorCheck {
    package let name = "usb-permissions"
    package init() {}

    package func run(_ environment: DoctorEnvironment) -> [DoctorFinding] {
        let adapters = environment.usbBluetoothAdapters()
        guard !adapters.isEmpty else { return [finding(.ok, "no USB Bluetooth adapter to check")] }
        let rules = environment.exists(PermissionAdvice.rulesFile)
        return adapters.map { adapter in
            switch environment.canReadWrite(adapter.node) {
            case .some(true):
                return finding(.ok, "\(adapter.location) (\(adapter.id)): \(adapter.node) is readable and writable")
            case .some(false):
                let rule = PermissionAdvice.usbDevice(node: adapter.node, id: USBID(vendor: adapter.vendor, product: adapter.product), what: "Bluetooth adapter \(adapter.location)")
                return finding(.error,
                               "\(adapter.location) (\(adapter.id)): \(adapter.node) cannot be opened by this user (uid \(environment.uid))"
                                  + (rules ? "; \(PermissionAdvice.rulesFile) exists but does not cover it" : "; no \(PermissionAdvice.rulesFile)"),
                               fix: rule)
            case .none:
                return finding(.warning, "\(adapter.location) (\(adapter.id)): no usbfs node \(adapter.node)",
                               fix: "mount devtmpfs on /dev (or pass /dev/bus/usb into the container)")
            }
        }
    }
}

/// The kernel version decides whether sysfs can keep a hub port off.
package struct KernelVersionCheck: DoctorCheck {
    package let name = "kernel-version"
    package init() {}

    package func run(_ environment: DoctorEnvironment) -> [DoctorFinding] {
        guard let version = KernelVersion(release: environment.kernelRelease) else {
            return [finding(.warning, "kernel release '\(environment.kernelRelease)' not understood; power switching falls back to hub requests")]
        }
        if version.keepsDisabledPortsOff {
            return [finding(.ok, "Linux \(version): a hub port's sysfs 'disable' file keeps it powered off")]
        }
        return [finding(.warning,
                        "Linux \(version) < 6.0 powers a disabled hub port back on: hub power is switched by class requests, which the kernel may undo",
                        fix: "use Linux 6.0 or later (Debian 12 ships 6.1) for reliable per-port power")]
    }
}

/// Hubs that can switch power per port: what power transitions and the ladder's last rung need.
package struct HubsCheck: DoctorCheck {
    package let name = "hubs"
    package init() {}

    package func run(_ environment: DoctorEnvironment) -> [DoctorFinding] {
        guard let hubs = environment.hubs else {
            return [finding(.info, "the USB topology could not be read: \(environment.topologyProblem ?? "unknown reason")",
                            fix: "run as root, or install the udev rules (sudo scripts/install-udev-rules)")]
        }
        let switching = hubs.filter { $0.switching == "per-port" }
        if switching.isEmpty {
            return [finding(.warning,
                            hubs.isEmpty ? "no USB hub found" : "none of the \(hubs.count) hub(s) switches power per port (\(hubs.map { "\($0.location): \($0.switching)" }.joined(separator: ", ")))",
                            fix: "for power transitions and the power-cycle recovery rung, add a per-port switching hub, a YKUSH board or a USB relay (see 'hil usb')")]
        }
        return switching.map { finding(.ok, "hub \($0.location) (\($0.id)) switches each of its \($0.ports) ports") }
    }
}

/// The adapters themselves: at least one, their drivers, and firmware they need from the host.
package struct AdaptersCheck: DoctorCheck {
    package let name = "adapters"
    package init() {}

    package func run(_ environment: DoctorEnvironment) -> [DoctorFinding] {
        let usb = environment.usbBluetoothAdapters()
        let hci = environment.hciAdapters()
        var findings: [DoctorFinding] = []
        for adapter in usb {
            let kernelName = hci.first { $0.usbLocation == adapter.location }?.name
            var what = "USB \(adapter.location) \(adapter.id)\(adapter.serial.map { "/\($0)" } ?? "")\(adapter.productName.map { " \"\($0)\"" } ?? ""): "
                + (adapter.driver.map { "driver \($0)" } ?? "no kernel driver") + (kernelName.map { " (\($0))" } ?? "")
            if !adapter.declaresBluetooth { what += "; vendor class: open it as usb:\(adapter.id)!" }
            findings.append(finding(.ok, what))
            let stage = ControllerQuirkStage(vendor: adapter.vendor, product: adapter.product, serial: adapter.serial, location: adapter.location)
            for line in stage.advice() {
                findings.append(DoctorFinding(check: "quirks", severity: stage.refusal == nil ? .info : .warning,
                                              what: "\(adapter.location) (\(adapter.id)): \(line)",
                                              fix: stage.refusal == nil ? nil : "use another dongle: this one is no HCI controller as it is"))
            }
            let need = FirmwareAdvisor.need(vendor: adapter.vendor, product: adapter.product)
            let present = need.map { $0.present(in: environment.firmwareDirectories, list: environment.list) }
            if let advice = FirmwareAdvisor.advice(vendor: adapter.vendor, product: adapter.product, driver: adapter.driver, firmwarePresent: present) {
                // usb: loads Realtek's and Intel's firmware itself: nothing to fix while its files are there.
                let loadedByUSB = present != false
                findings.append(DoctorFinding(check: "firmware", severity: loadedByUSB ? .info : .warning, what: "\(adapter.location) (\(adapter.id)): \(advice)",
                                              fix: present == false ? "sudo apt-get install \(need?.package ?? "") (or scripts/install-deps --firmware)"
                                                   : loadedByUSB ? nil : "use hci-socket:N for this adapter"))
            }
        }
        for adapter in hci where !usb.contains(where: { $0.location == adapter.usbLocation }) {
            findings.append(finding(.ok,
                                    "\(adapter.name): \(adapter.driver.map { "driver \($0)" } ?? "virtual or platform adapter") (hci-socket:\(adapter.name.dropFirst(3)))"))
        }
        if findings.isEmpty {
            findings.append(finding(.error, "no Bluetooth adapter: no USB device of class E0/01/01 or known dongle, and no hciN",
                                    fix: "plug in a dongle (nRF52840 with Zephyr hci_usb, CSR8510, …), or use a simulated bench (sim:) or btvirt (unix:/tmp/bt-server-le)"))
        }
        return findings
    }
}

/// Runs every check.
package enum Doctor {
    package static let checks: [any DoctorCheck] = [
        KernelBluetoothCheck(), BluetoothdCheck(), RfkillCheck(), USBPermissionsCheck(), KernelVersionCheck(), HubsCheck(), AdaptersCheck(),
    ]

    package static func examine(_ environment: DoctorEnvironment, checks: [any DoctorCheck] = Doctor.checks) -> [DoctorFinding] {
        checks.flatMap { $0.run(environment) }
    }

    /// True when any finding stops the bench from working.
    package static func benchCannotWork(_ findings: [DoctorFinding]) -> Bool { findings.contains { $0.severity == .error } }
}
