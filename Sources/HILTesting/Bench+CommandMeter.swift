import DeviceControl
import Rigs

extension Bench {
    /// The rig's `command` meter on `accessory`, for one case, its program to write `csvPath`; nil when the
    /// accessory has no meter or one of another kind.
    func commandMeter(for accessory: String, recordingTo csvPath: String) throws -> CommandMeter? {
        guard let rig, let name = rig.accessory(named: accessory)?.meter, let meter = rig.meters.first(where: { $0.name == name }),
              meter.kind == .command, let command = meter.command else { return nil }
        let recorder = try CommandMeterRecorder(name: name, argv: command, csvPath: csvPath)
        return CommandMeter(name: name, supplyVolts: meter.supplyVolts, recorder: recorder)
    }
}
