/// One line of the served air's control protocol (standard input and `--control` sockets):
///
///     power ACCESSORY on|off|status    status    help    quit
///
/// Each request is answered with one line: `ok …` when done, `error: …` when the request is wrong (an
/// unknown command or accessory: a client exits 3), `failed: …` when the bench could not do it (exit 2).
enum ControlRequest: Equatable, Sendable {
    enum PowerAction: String, Sendable { case on, off, status }

    case power(accessory: String, PowerAction)
    case status
    case help
    case quit
    /// A blank line: answered with nothing but `ok`, so a client can probe the socket.
    case ping

    static let summary = "commands: power ACCESSORY on|off|status, status, help, quit"

    /// Parses a line; the error is the `error:` answer's text.
    static func parse(_ line: String) -> Result<ControlRequest, ControlAnswer> {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first else { return .success(.ping) }
        switch (verb, words.count) {
        case ("power", 3):
            guard let action = PowerAction(rawValue: words[2]) else {
                return .failure(.error("power \(words[1]) \(words[2]): expected on, off or status"))
            }
            return .success(.power(accessory: words[1], action))
        case ("power", _):
            return .failure(.error("usage: power ACCESSORY on|off|status"))
        case ("status", 1): return .success(.status)
        case ("help", 1): return .success(.help)
        case ("quit", 1): return .success(.quit)
        case ("status", _), ("help", _), ("quit", _):
            return .failure(.error("'\(verb)' takes no arguments"))
        default:
            let shown = verb.count > 40 ? String(verb.prefix(40)) + "…" : verb
            return .failure(.error("unknown command '\(shown)' (\(summary))"))
        }
    }
}

/// The one-line answer to a control request.
enum ControlAnswer: Equatable, Sendable, Error {
    case ok(String)
    case error(String)
    case failed(String)

    var line: String {
        switch self {
        case .ok(let text): text.isEmpty ? "ok" : "ok \(text)"
        case .error(let text): "error: \(text)"
        case .failed(let text): "failed: \(text)"
        }
    }
}
