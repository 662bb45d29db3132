import Simulation

extension Rig {
    /// The rig with its simulated bench on real time at a time scale of 1, for a bench whose hosts are
    /// other processes (`hil sim serve`, `hil serve sim:NAME`): virtual time cannot see their waits, and a
    /// scaled air would not be the radio they expect. `ignoredTimeScale` hears a time scale other than 1
    /// that was dropped, so the caller can say so.
    public func onRealTime(ignoredTimeScale: (Double) -> Void = { _ in }) -> Rig {
        guard var simulation else { return self }
        if simulation.timing.timeScale != 1 {
            ignoredTimeScale(simulation.timing.timeScale)
            simulation.timing.timeScale = 1
        }
        simulation.timing.clock = .real
        var rig = self
        rig.simulation = simulation
        return rig
    }
}
