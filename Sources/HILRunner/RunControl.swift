/// What a run shares with the signal handling around it (`RunSignals`): the signals received and the phase
/// the run is in, the children it has running, and the one way it writes its results.
struct RunControl: Sendable {
    let interrupts: RunInterrupts
    let children = RunningChildren()
    let gate = ResultsGate()

    init(interrupts: RunInterrupts = RunInterrupts()) {
        self.interrupts = interrupts
    }
}
