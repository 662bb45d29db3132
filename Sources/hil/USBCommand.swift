import DeviceControl
import Foundation
import HILRunner

/// `hil usb [--json] [--watch SECONDS]`: the USB tree, or its changes for a while.
enum USBCommand {
    static let usage = """
        usage: hil usb [--json] [--watch SECONDS]
        The USB tree: hubs (per-port power, ganged or none), their ports and devices, Bluetooth adapters marked.
          --json             the tree as JSON
          --watch SECONDS    print each device that arrives or leaves, for that long
        """

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let json: Bool
        let watch: Double?
        do {
            json = arguments.flag("json")
            watch = try arguments.number("watch", in: 0.1...86_400)
            try arguments.finish()
        } catch {
            return fail("\(error); see 'hil usb --help'", .usageError)
        }
        do {
            if let watch {
                let watcher = try USBWatcher()
                // Unbuffered, one line per change, so a log or a pipe sees each change as it happens.
                let announcement = "watching USB for \(Duration.milliseconds(Int64(watch * 1000)).seconds) (\(watcher.usesHotplug ? "libusb hotplug + polling" : "polling"))"
                for try await change in watcher.changes(for: .milliseconds(Int64(watch * 1000)), ready: { line(announcement) }) {
                    line(change.description)
                }
                return .success
            }
            let topology = try await TopologyReader().read()
            if json {
                StandardStreams.output(try topology.jsonData(marking: .bluetoothAdapters))
                print()
            } else {
                print(topology.renderTree(marking: .bluetoothAdapters))
            }
            return .success
        } catch let error as PowerSwitchError {
            return fail(error.message, error.isUsageError ? .usageError : .infrastructureError)
        } catch {
            return fail("\(error)", .infrastructureError)
        }
    }

    static func line(_ text: String) { StandardStreams.output(Data((text + "\n").utf8)) }

    static func fail(_ message: String, _ status: ExitStatus) -> ExitStatus {
        StandardStreams.error("hil usb: \(message)\n")
        return status
    }
}
