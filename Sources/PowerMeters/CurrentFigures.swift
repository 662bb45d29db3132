/// What a stretch of a current trace comes to: the average current, the charge it drew and, at the supply's
/// voltage, the energy. Samples are equally spaced (`samplesPerSecond`).
package struct CurrentFigures: Equatable, Sendable {
    /// The number of samples.
    package var samples: Int
    /// The stretch's length in seconds (samples over the rate).
    package var seconds: Double
    /// The mean current in microamperes.
    package var averageMicroamperes: Double
    /// The charge in microcoulombs: the mean current times the time.
    package var chargeMicrocoulombs: Double
    /// The energy in microjoules: the charge times the supply voltage.
    package var energyMicrojoules: Double
    /// Of `samples`, those that stand in for samples lost between the meter and the host (a PPK2's sample
    /// counter jumped; each is the sample before its gap): the figures are that much less measured.
    package var lostSamples = 0

    /// The figures of `microamperes`, taken `samplesPerSecond` a second from a supply of `supplyVolts`.
    package init(microamperes: some Collection<Double>, samplesPerSecond: Int, supplyVolts: Double) {
        self.init(sum: microamperes.reduce(0, +), samples: microamperes.count, samplesPerSecond: samplesPerSecond, supplyVolts: supplyVolts)
    }

    /// The figures of `samples` samples whose currents add up to `sum` µA.
    package init(sum: Double, samples: Int, samplesPerSecond: Int, supplyVolts: Double) {
        self.samples = samples
        seconds = Double(samples) / Double(samplesPerSecond)
        averageMicroamperes = samples == 0 ? 0 : sum / Double(samples)
        chargeMicrocoulombs = sum / Double(samplesPerSecond)
        energyMicrojoules = chargeMicrocoulombs * supplyVolts
    }
}
