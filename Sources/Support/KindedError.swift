/// An error of one layer, as every layer of the harness reports one: `kind` says whose fault it is and so what a
/// caller does about it (the exit status, a retry, a usage error); `message` is one line naming what was asked or
/// awaited, for how long, and what came instead. Each layer names its own kinds and the type it throws
/// (`ProcessError`, `PowerMeterError`, `PowerSwitchError`, `HCITransportError`), so a caller switches over the
/// kinds of the layer it called and prints the line as it is.
public struct KindedError<LayerKind: Sendable & Hashable>: Error, Sendable, Hashable, CustomStringConvertible {
    /// The layer's kinds: `PowerSwitchError.Kind`, `HCITransportError.Kind`, ….
    public typealias Kind = LayerKind

    /// Whose fault it is.
    public var kind: Kind
    /// One line: what was asked or awaited, and what came instead.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
