import Simulation
import StrictJSON
import Testing

/// An accessory's `current` block: absent, no model; present, its defaults for what it leaves out; a misspelt
/// key or a negative charge, an error naming the field.
@Suite struct SimulatedCurrentModelReadingTests {
    static func read(_ json: String) throws(InputError) -> SimulatedAccessoryDescription {
        var value = try InputDocument.parse(Array(json.utf8))
        value = InputValue(value.node, path: "simulated")
        return try SimulatedAccessoryDescription(reading: value)
    }

    static func message(_ json: String) -> String {
        do { _ = try read(json); return "no error" } catch { return error.description }
    }

    @Test func absentBlockMeansNoModel() throws {
        #expect(try Self.read(#"{"controller": "p", "name": "n"}"#).current == nil)
    }

    @Test func presentBlockFillsItsDefaults() throws {
        let model = try #require(try Self.read(#"{"controller": "p", "name": "n", "current": {"sleep_uA": 400, "boot_uC": 0}}"#).current)
        #expect(model.sleepMicroamperes == 400 && model.bootMicrocoulombs == 0)
        #expect(model.advertisingChannelMicrocoulombs == 4 && model.connectionEventMicrocoulombs == 3)
        #expect(model.transmitMicrocoulombsPerMicrosecond == 0.0053 && model.receiveMicrocoulombsPerMicrosecond == 0.0054)
    }

    @Test(arguments: [
        (#"{"controller": "p", "name": "n", "current": {"sleep_ua": 4}}"#, "simulated.current.sleep_ua: unknown key; did you mean sleep_uA?"),
        (#"{"controller": "p", "name": "n", "current": {"connectionEvent_uC": -1}}"#,
         "simulated.current.connectionEvent_uC: expected a charge in µC from 0 to 1000000, found -1"),
    ])
    func badBlocksNameTheField(json: String, expected: String) {
        #expect(Self.message(json) == expected)
    }
}
