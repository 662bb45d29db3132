extension Rig {
    /// The PPK2s a run streams from, each with the accessory whose `meter` names it: the `meters` entries of kind
    /// ppk2 (each has its serial `port`) that an accessory measures with. The bench opens these when it is leased
    /// and streams them for the whole run; `hil run` stops them when its test process has ended.
    package var streamedPPK2s: [(accessory: String, meter: RigMeter, port: String)] {
        accessories.compactMap { accessory in
            guard let name = accessory.meter, let meter = meters.first(where: { $0.name == name }), meter.kind == .ppk2,
                  let port = meter.port else { return nil }
            return (accessory.name, meter, port)
        }
    }
}
