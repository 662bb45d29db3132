import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the doctor's checks read: a root directory (`/` normally, a fake tree in tests) under which
/// `sys`, `proc`, `dev`, `etc` and `lib/modules` are looked up, plus the few facts that are not files.
package struct DoctorEnvironment: Sendable {
    package var root: String
    /// The running kernel's release (`6.1.0-57-amd64`).
    package var kernelRelease: String
    /// The user the bench runs as, and its groups.
    package var uid: UInt32
    package var groups: [UInt32]
    /// 0 when `socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI)` works, else its errno; nil when not probed.
    package var bluetoothSocketErrno: Int32?
    /// Hubs whose descriptors were read (location, per-port switching, ports), when a USB topology was read.
    package var hubs: [HubFact]?
    /// Why the USB topology could not be read, if it could not.
    package var topologyProblem: String?
    /// Where controller firmware is looked up (under `root`), in order: `/lib/firmware` alone unless told;
    /// the live environment's are `FirmwareFiles.standard()`'s, where `usb:` finds them.
    package var firmwareDirectories: [String] = ["/lib/firmware"]

    package struct HubFact: Sendable, Hashable {
        package var location: String
        package var id: String
        package var switching: String
        package var ports: Int

        package init(location: String, id: String, switching: String, ports: Int) {
            self.location = location
            self.id = id
            self.switching = switching
            self.ports = ports
        }
    }

    package init(root: String = "/", kernelRelease: String, uid: UInt32, groups: [UInt32],
                bluetoothSocketErrno: Int32? = nil, hubs: [HubFact]? = nil, topologyProblem: String? = nil) {
        self.root = root
        self.kernelRelease = kernelRelease
        self.uid = uid
        self.groups = groups
        self.bluetoothSocketErrno = bluetoothSocketErrno
        self.hubs = hubs
        self.topologyProblem = topologyProblem
    }

    /// `root` + an absolute path.
    package func path(_ absolute: String) -> String {
        root == "/" ? absolute : (root.hasSuffix("/") ? String(root.dropLast()) : root) + absolute
    }

    package func read(_ absolute: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path(absolute)) else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    package func exists(_ absolute: String) -> Bool { FileManager.default.fileExists(atPath: path(absolute)) }

    package func list(_ absolute: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path(absolute))) ?? []).sorted()
    }

    package func link(_ absolute: String) -> String? { try? FileManager.default.destinationOfSymbolicLink(atPath: path(absolute)) }

    /// Whether this user may open `absolute` for reading and writing, from its mode bits and owner
    /// (not `access()`, which says yes to root in tests).
    package func canReadWrite(_ absolute: String) -> Bool? {
        var info = stat()
        guard stat(path(absolute), &info) == 0 else { return nil }
        if uid == 0 { return true }
        let mode = UInt32(info.st_mode)
        if info.st_uid == uid { return mode & 0o600 == 0o600 }
        if groups.contains(info.st_gid) { return mode & 0o060 == 0o060 }
        return mode & 0o006 == 0o006
    }

    /// The environment of this process, with the Bluetooth socket probed and the USB topology's hubs.
    package static func live(hubs: [HubFact]?, topologyProblem: String?) -> DoctorEnvironment {
        var name = utsname()
        let release = uname(&name) == 0 ? withUnsafeBytes(of: &name.release) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        } : ""
        var groupList = [gid_t](repeating: 0, count: 64)
        let count = getgroups(64, &groupList)
        let fd = socket(31, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 1)
        let socketErrno: Int32 = fd >= 0 ? 0 : errno
        if fd >= 0 { close(fd) }
        var environment = DoctorEnvironment(root: "/", kernelRelease: release, uid: getuid(),
                                            groups: Array(groupList.prefix(Int(max(0, count)))) + [getgid()],
                                            bluetoothSocketErrno: socketErrno, hubs: hubs, topologyProblem: topologyProblem)
        environment.firmwareDirectories = FirmwareFiles.standard().directories
        return environment
    }
}
