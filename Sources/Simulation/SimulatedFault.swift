/// A fault a simulated controller can be built with, to test how the host copes.
package enum SimulatedFault: String, Sendable, Hashable, CaseIterable {
    /// Advertises as configured but never accepts a CONNECT_IND: an initiator's LE Create Connection
    /// stays pending (until LE Create Connection Cancel), as with an accessory whose link layer is wedged.
    case refusesConnections
    /// Never answers an HCI command (no Command Complete or Status): the host's command timeouts fire.
    case unresponsive
}
