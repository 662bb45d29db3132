import BenchOperations
import Foundation

/// `hil adapters [--json]`: every Bluetooth adapter, USB and kernel, with the monikers that open it.
enum AdaptersCommand {
    static let usage = "usage: hil adapters [--json]"

    static func run(_ arguments: Arguments) async -> ExitStatus {
        var arguments = arguments
        let json = arguments.flag("json")
        do { try arguments.finish() } catch { return Diagnostics.usageError("adapters", error) }
        let inventory = AdapterInventory.read()
        print(json ? JSONOutput.text(inventory) : inventory.text())
        // Both sources unreadable: this machine cannot see adapters at all.
        if inventory.isEmpty && inventory.notes.count >= 2 {
            return Diagnostics.fail("adapters", "no adapter source could be read (see the notes above)", .infrastructureError)
        }
        return .success
    }
}
