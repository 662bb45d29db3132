import DeviceControl
import Foundation
import Roles
import Simulation

/// `--power-follows`: an accessory's power follows a USB device's presence in sysfs.
extension SimulatedAirServer {
    /// Looks at the device's presence every `PowerFollow.pollInterval` of the air's clock (sysfs announces
    /// nothing), on the server's loop, and powers the accessory on or off when it changed.
    func watch(_ follow: PowerFollow) -> Task<Void, Never> {
        let sysfs = options.sysfs
        let clock = clock
        var present = follow.isPresent(in: sysfs)
        return Task(executorPreference: loop) { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: PowerFollow.pollInterval, clock: clock)
                if Task.isCancelled { return }
                let now = follow.isPresent(in: sysfs)
                guard now != present else { continue }
                present = now
                guard let server = self else { return }
                let reply = await server.answer("power \(follow.accessory) \(now ? "on" : "off")")
                server.options.log("hil sim serve: USB device \(follow.location) \(now ? "appeared" : "left"): \(reply)")
            }
        }
    }
}
