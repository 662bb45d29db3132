import StrictJSON

extension Rig {
    /// The rig with the files it names read, relative to `directory` (the rig file's; `""` is the working
    /// directory): each simulated accessory's `dfu` keys. An error names the field and the file.
    func readingFiles(relativeTo directory: String) throws(InputError) -> Rig {
        var rig = self
        for index in rig.accessories.indices {
            guard var dfu = rig.accessories[index].simulated?.dfu else { continue }
            try dfu.readKeys(relativeTo: directory, at: "accessories[\(index)].simulated.dfu")
            rig.accessories[index].simulated?.dfu = dfu
        }
        return rig
    }
}
