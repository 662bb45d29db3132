import Foundation
import Testing

/// The reader takes `"$schema"` at the top level only, as a string.
@Suite struct RigSchemaTests {
    @Test(arguments: [
        (#"{"$schema": 5, "name": "t", "adapter": {"moniker": "usb:0"}, "accessories": []}"#,
         #"$schema: expected a string naming the rig file's JSON Schema, like "./rig.schema.json", found 5"#),
        (#"{"name": "t", "adapter": {"moniker": "usb:0", "$schema": "./rig.schema.json"}, "accessories": []}"#,
         "adapter.$schema: unknown key (known: moniker, power)"),
        (#"{"schema": "./rig.schema.json", "name": "t", "adapter": {"moniker": "usb:0"}, "accessories": []}"#,
         "schema: unknown key; did you mean $schema?"),
        (#"{"$schema": "", "name": "t", "adapter": {"moniker": "usb:0"}, "accessories": []}"#, "no error"),
    ])
    func schemaIsATopLevelString(rig: String, expected: String) {
        #expect(RigTests.message(Data(rig.utf8)) == expected)
    }
}
