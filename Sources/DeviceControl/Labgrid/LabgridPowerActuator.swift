/// A switch that is a labgrid place's power driver: `labgrid-client -p PLACE power on|off|get [--name RESOURCE]`,
/// so any PDU, YKUSH, uhubctl hub or network power port labgrid drives is ours, verified like every switch.
///
/// labgrid switches only for the place's holder. During `hil run` on a rig with that place we hold it; used
/// on its own (`hil power --rig lab.json dut-outlet off`) a free place is acquired for the action and
/// released after, and a place someone else holds is an error naming them.
package struct LabgridPowerActuator: PowerActuator {
    package let name: String
    package let client: LabgridClient
    package let resource: String?

    package init(name: String, place: LabgridPlace, resource: String?) {
        self.name = name
        self.client = LabgridClient(place)
        self.resource = resource
    }

    package func apply(_ power: Power) async throws -> [String] {
        let said = try await holding { () async throws(LabgridError) -> String in try await client.power(power == .on ? "on" : "off", resource: resource) }
        return ["labgrid-client -p \(client.place.place) power \(power == .on ? "on" : "off")\(resource.map { " --name \($0)" } ?? ""): \(said)"]
    }

    package func status() async throws -> PowerStatus {
        let state = try await holding { () async throws(LabgridError) -> String in try await client.power("get", resource: resource) }
        return PowerStatus(state: state == "on" ? .on : .off, detail: "labgrid \(client.place) power reads \(state)")
    }

    /// Runs `action` with the place held: as it is when we hold it, else acquired for it and released after.
    private func holding(_ action: () async throws(LabgridError) -> String) async throws -> String {
        do {
            return try await action()
        } catch where error.kind == .notAcquired {
            do {
                try await client.acquire()
            } catch {
                throw PowerSwitchError(.refused, "\(name): \(error)")
            }
            let outcome: Result<String, LabgridError>
            do throws(LabgridError) { outcome = .success(try await action()) } catch { outcome = .failure(error) }
            try? await client.release()
            switch outcome {
            case .success(let said): return said
            case .failure(let error): throw PowerSwitchError(.deviceFailure, "\(name): \(error)")
            }
        } catch {
            throw PowerSwitchError(.deviceFailure, "\(name): \(error)")
        }
    }
}
