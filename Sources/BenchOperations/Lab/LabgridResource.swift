/// One resource of a labgrid exporter configuration: its name in the group, its labgrid class and the
/// parameters that class takes (`index: 2`, `serial: "YK12345"`, a udev `match`), in the order written.
public struct LabgridResource: Sendable, Equatable {
    /// A parameter's value as labgrid's resource classes take it.
    public enum Value: Sendable, Equatable {
        case text(String)
        case integer(Int)
        /// udev properties (or `sys_name`) that must all match, in order: a USB resource's `match`.
        case match([UdevProperty])
    }

    /// One `KEY: VALUE` of a mapping.
    public struct Field<FieldValue: Sendable & Equatable>: Sendable, Equatable {
        public var key: String
        public var value: FieldValue

        public init(_ key: String, _ value: FieldValue) {
            self.key = key
            self.value = value
        }
    }

    /// One `KEY: VALUE` of a udev `match`.
    public typealias UdevProperty = Field<String>
    /// One `KEY: VALUE` of the resource.
    public typealias Parameter = Field<Value>

    /// Its name in the group (`thermometer-power`): labgrid-client shows it as EXPORTER/GROUP/CLASS/NAME.
    public var name: String
    /// The labgrid resource class (`USBPowerPort`), its `cls:` key.
    public var labgridClass: String
    public var parameters: [Parameter]
    /// What it is on the bench, in words (`thermometer's power: port 2 of usb-hub 1-1.4 (thermometer-port)`).
    public var origin: String

    public init(name: String, labgridClass: String, parameters: [Parameter], origin: String) {
        self.name = name
        self.labgridClass = labgridClass
        self.parameters = parameters
        self.origin = origin
    }
}
