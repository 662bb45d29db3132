/// The energy of one transition a case marked on its timeline (advertising after power-on, connect,
/// discovery, idle while connected, disconnect, …), measured by the meter on the accessory's supply over the
/// transition's span. In results.json as `avg_uA`, `charge_uC` and `energy_uJ`, and `lost_samples` when the
/// meter lost some of the span's samples on their way to the host.
public struct TransitionEnergy: Codable, Sendable, Hashable {
    /// The timeline lane and label of the transition.
    public var lane: TimelineEvent.Lane
    public var label: String
    /// Seconds from the start of the case, and how long it lasted.
    public var offset: Double
    public var duration: Double
    /// The mean current over the span, in µA.
    public var averageMicroamperes: Double
    /// The charge drawn over the span, in µC.
    public var chargeMicrocoulombs: Double
    /// The charge times the supply voltage, in µJ.
    public var energyMicrojoules: Double
    /// How many of the span's samples the meter lost on their way to the host, each counted as the sample before
    /// its gap (a PPK2's sample counter jumped); nil when none were.
    public var lostSamples: Int?

    enum CodingKeys: String, CodingKey {
        case lane, label, offset, duration
        case averageMicroamperes = "avg_uA", chargeMicrocoulombs = "charge_uC", energyMicrojoules = "energy_uJ"
        case lostSamples = "lost_samples"
    }

    public init(lane: TimelineEvent.Lane, label: String, offset: Double, duration: Double, averageMicroamperes: Double,
                chargeMicrocoulombs: Double, energyMicrojoules: Double, lostSamples: Int? = nil) {
        (self.lane, self.label, self.offset, self.duration) = (lane, label, offset, duration)
        (self.averageMicroamperes, self.chargeMicrocoulombs, self.energyMicrojoules) = (averageMicroamperes, chargeMicrocoulombs, energyMicrojoules)
        self.lostSamples = lostSamples
    }
}
