/// A rule with a name, written once under the schema's `definitions` and referred to (`$ref`) wherever it is
/// used: a rig's `powerReference`, a switch's `commandLine`. An object's definition is a section of the
/// reference.
package struct JSONDefinition: Sendable {
    package let name: String
    package let rule: JSONRule

    package init(_ name: String, _ rule: JSONRule) {
        self.name = name
        self.rule = rule
    }

    /// An object definition.
    package init(_ shape: JSONShape) {
        self.init(shape.name, JSONRule(.object(shape), description: shape.description, notes: shape.notes))
    }

    /// A field's rule that refers to this definition, with the field's own description.
    package func reference(_ description: String? = nil, default defaultValue: OrderedJSON? = nil) -> JSONRule {
        JSONRule(.definition(self), description: description, default: defaultValue)
    }

    /// `#/definitions/NAME`.
    package var pointer: String { "#/definitions/\(name)" }
}
