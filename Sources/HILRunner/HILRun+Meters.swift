import DeviceControl
import Rigs

extension HILRun {
    /// Stops the PPK2s the test process streamed from (`Rig.streamedPPK2s`), once it has ended: a PPK2 left
    /// streaming into a closed port keeps sending until the next program opens it, and a program other than hil
    /// (ppk2-api, the nRF Connect Power Profiler) then reads samples where it asked for metadata. A meter that
    /// cannot be stopped is named on standard error; the run's results and exit status stand.
    static func stopStreamedMeters(of rig: Rig, output: RunOutput) async {
        for (_, meter, port) in rig.streamedPPK2s {
            do {
                try await PPK2Stop.stopStreaming(port: port)
            } catch {
                output.err("hil run: PPK2 \(meter.name) at \(port) may still be streaming (AVERAGE_STOP not sent): \(error)\n")
            }
        }
    }
}
