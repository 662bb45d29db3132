/// One resource of a labgrid exporter configuration: its name in the group, its labgrid class and the
/// parameters that class takes (`index: 2`, `serial: "YK12345"`, a udev `match`), in the order written.
package struct LabgridResource: Sendable, Equatable {
    /// A parameter's value as labgrid's resource classes take it.
    package enum Value: Sendable, Equatable {
        case text(String)
        case integer(Int)
        /// udev properties (or `sys_name`) that must all match, in order: a USB resource's `match`.
        case match([UdevProperty])
    }

    /// One `KEY: VALUE` of a mapping.
    package struct Field<FieldValue: Sendable & Equatable>: Sendable, Equatable {
        package var key: String
        package var value: FieldValue

        package init(_ key: String, _ value: FieldValue) {
            self.key = key
            self.value = value
        }
    }

    /// One `KEY: VALUE` of a udev `match`.
    package typealias UdevProperty = Field<String>
    /// One `KEY: VALUE` of the resource.
    package typealias Parameter = Field<Value>

    /// Its name in the group (`thermometer-power`): labgrid-client shows it as EXPORTER/GROUP/CLASS/NAME.
    package var name: String
    /// The labgrid resource class (`USBPowerPort`), its `cls:` key.
    package var labgridClass: String
    package var parameters: [Parameter]
    /// What it is on the bench, in words (`thermometer's power: port 2 of usb-hub 1-1.4 (thermometer-port)`).
    package var origin: String
}
