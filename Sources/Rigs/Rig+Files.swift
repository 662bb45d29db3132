import Simulation
import StrictJSON

extension Rig {
    /// The rig with the files it names read, relative to `directory` (the rig file's; `""` is the working
    /// directory): each simulated accessory's `dfu` keys and each `firmwareUpdate`'s signing key. An error names the
    /// field and the file.
    func readingFiles(relativeTo directory: String) throws(InputError) -> Rig {
        var rig = self
        for index in rig.accessories.indices {
            if let file = rig.accessories[index].firmwareUpdate?.signedWithFile {
                rig.accessories[index].firmwareUpdate?.signedWith = try SimulatedDFU.readSigningKey(
                    file, relativeTo: directory, at: "accessories[\(index)].firmwareUpdate.signedWith").key
            }
            guard var dfu = rig.accessories[index].simulated?.dfu else { continue }
            try dfu.readKeys(relativeTo: directory, at: "accessories[\(index)].simulated.dfu")
            rig.accessories[index].simulated?.dfu = dfu
        }
        return rig
    }
}
