import SMP

/// How a bond store failure ends a command: a file that does not parse is the user's to repair (exit 3,
/// as a bad input file is); a change that did not reach the disk, or a lock not had in time, is the
/// bench's (exit 2).
extension BondStoreError {
    var exitStatus: ExitStatus { kind == .unreadable ? .usageError : .infrastructureError }
}

extension SecurityError {
    /// The bond store's failure inside this error, if that is what it is.
    var bondStoreFailure: BondStoreError? {
        if case .bondStore(let failure) = self { return failure }
        return nil
    }
}
