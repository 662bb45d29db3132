/// Controllers that join an air after its world was built: one per H4 connection a served air accepts,
/// as btvirt's server gives each client its own controller.
extension SimulatedAir {
    /// Puts a new, powered-on controller on the air and returns it (a controller plugged in while the
    /// world runs). It leaves the air like any other when it loses power (`powerOff()`): its peers see
    /// Connection Timeout (0x08) after each link's supervision timeout. Throws when a powered
    /// controller on the air already has that name.
    package func join(_ configuration: SimulatedWorldDescription.Controller) throws(SimulatedWorldError) -> SimulatedController {
        guard models[configuration.name] == nil else {
            throw SimulatedWorldError(["a controller named '\(configuration.name)' is already on the air"])
        }
        let controller = SimulatedController(configuration: configuration, air: self)
        add(controller)
        controller.markPoweredOn()
        return controller
    }

    /// The names of the powered controllers on the air, sorted.
    package func controllerNamesOnAir() -> [String] { models.keys.sorted() }
}
