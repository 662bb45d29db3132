/// An attribute of a parsed XML element, its prefix resolved to a namespace URI.
package struct XMLTextAttribute: Sendable, Hashable {
    /// The namespace URI (`http://schemas.android.com/apk/res/android`), nil for an unprefixed attribute.
    package let namespaceURI: String?
    /// The local name (`name` for `android:name`).
    package let localName: String
    /// The value, entities decoded; binary XML typed values are rendered as text (`30`, `true`, `0x10000`).
    package let value: String
}

/// An element of a parsed XML document (text XML or Android binary XML), with its position.
///
/// Only what the lint needs is kept: names, attributes, child elements, direct text and the line and
/// column of the start tag.
package struct XMLTextElement: Sendable, Hashable {
    /// The namespace URI of the element, nil when unqualified.
    package var namespaceURI: String?
    /// The local name (`uses-permission`).
    package var localName: String
    /// Attributes in document order.
    package var attributes: [XMLTextAttribute]
    /// Child elements in document order.
    package var children: [XMLTextElement]
    /// The element's direct character data (text and CDATA), concatenated.
    package var text: String
    /// 1-based line of the start tag, nil when unknown.
    package var line: Int?
    /// 1-based column of the start tag's `<`, nil when unknown.
    package var column: Int?

    package init(
        namespaceURI: String? = nil, localName: String, attributes: [XMLTextAttribute] = [],
        children: [XMLTextElement] = [], text: String = "", line: Int? = nil, column: Int? = nil
    ) {
        self.namespaceURI = namespaceURI
        self.localName = localName
        self.attributes = attributes
        self.children = children
        self.text = text
        self.line = line
        self.column = column
    }

    /// The value of the attribute with this local name in this namespace (nil namespace: unprefixed).
    package func attribute(_ localName: String, namespace: String?) -> String? {
        attributes.first { $0.localName == localName && $0.namespaceURI == namespace }?.value
    }

    /// Child elements with this local name.
    package func children(named localName: String) -> [XMLTextElement] {
        children.filter { $0.localName == localName }
    }
}
