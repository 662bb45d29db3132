/// Splits a command line's `NAME=VALUE` (`--power-follows thermometer=1-1.2`, `--listen-controller
/// central=unix:PATH`) at its first `=`: nil when there is none or the name before it is empty.
func nameEqualsValue(_ text: String) -> (name: String, value: String)? {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
    return (String(text[..<equals]), String(text[text.index(after: equals)...]))
}
