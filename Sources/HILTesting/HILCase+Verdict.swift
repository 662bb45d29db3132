import DeviceControl
import PowerMeters
import HostCore
import SMP
import Roles

/// How a thrown error is classified: a failure of the product under test, or of the bench.
extension HILCase {
    /// The bench failed, not the product: the adapter stopped answering, the transport to it closed, a
    /// switch could not be verified, a meter gave no figures, the bond store could not keep a bond.
    static func isInfrastructure(_ error: any Error) -> Bool {
        if error is BenchError || error is PowerSwitchError || error is PowerMeterError { return true }
        if let error = error as? SecurityError, case .bondStore = error { return true }
        if let error = error as? HCIError { return isInfrastructure(error) }
        if let error = error as? RoleError, case .host(let inner) = error { return isInfrastructure(inner) }
        return false
    }

    static func isInfrastructure(_ error: HCIError) -> Bool {
        switch error {
        case .commandTimeout, .transportClosed, .hardwareError, .notPoweredOn: true
        default: false
        }
    }
}
