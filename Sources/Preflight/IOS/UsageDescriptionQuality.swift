/// Judges whether a usage description tells a user anything.
enum UsageDescriptionQuality {
    private static let placeholderWords: Set<String> = ["todo", "fixme", "tbd", "placeholder", "lorem", "xxx", "tba"]
    private static let placeholderPhrases = [
        "replace with", "replace this", "replace me", "description here", "your description", "your usage description",
        "enter a description", "enter description", "add a description", "insert description", "usage description",
    ]
    /// Words that only restate that the app uses Bluetooth.
    private static let genericWords: Set<String> = [
        "this", "the", "app", "application", "needs", "need", "requires", "require", "required", "uses", "use", "using",
        "usage", "access", "to", "your", "bluetooth", "permission", "we", "our", "is", "for", "always", "peripheral",
        "please", "allow", "enable", "wants", "would", "like", "a", "an", "of", "device", "devices", "ble", "le",
    ]

    /// Why `value` says nothing to a user, or nil when it is fine (or cannot be judged).
    static func problem(with value: String, key: String) -> String? {
        let trimmed = value.trimmingCharactersInWhitespace()
        if trimmed.isEmpty { return "is blank" }
        let lowered = trimmed.lowercased()
        let stripped = lowered.trimmingTrailingPunctuation()
        let displayName = "privacy - bluetooth \(key.contains("Always") ? "always" : "peripheral") usage description"
        if stripped == key.lowercased() || stripped == displayName { return "is the key's own name" }
        if placeholderPhrases.contains(where: { lowered.contains($0) }) { return "is a placeholder (\"\(trimmed)\")" }
        // Build settings such as $(PRODUCT_NAME) are filled in by Xcode; judge only the words around them.
        let withoutSettings = removingBuildSettings(lowered)
        let words = withoutSettings.split { !$0.isLetter && $0 != "'" }.map(String.init)
        if words.contains(where: placeholderWords.contains) { return "is a placeholder (\"\(trimmed)\")" }
        if words.isEmpty {
            return nil  // Only a build setting: its value is not in this file.
        }
        if !trimmed.contains(where: \.isWhitespace) { return "is a single word (\"\(trimmed)\")" }
        if words.allSatisfy(genericWords.contains) {
            return "only says that the app uses Bluetooth, not what for (\"\(trimmed)\")"
        }
        return nil
    }

    private static func removingBuildSettings(_ text: String) -> String {
        var result = ""
        var depth = 0
        var previous: Character?
        for character in text {
            if (character == "(" || character == "{"), previous == "$" {
                // The "$" was kept only outside a setting: "$($(" nests without one to take back.
                if depth == 0 { result.removeLast() }
                depth += 1
            } else if depth > 0 {
                if character == ")" || character == "}" { depth -= 1 }
            } else {
                result.append(character)
            }
            previous = character
        }
        return result
    }
}

extension String {
    func trimmingTrailingPunctuation() -> String {
        var text = self
        while let last = text.last, last.isPunctuation || last.isWhitespace { text.removeLast() }
        return text
    }
}
