import Support
import Foundation

/// labgrid's own client (`labgrid-client`, PyPI labgrid) run for one place: acquire, release, show and
/// power, each with a deadline, its errors turned into one line that names the place and what to do.
///
/// The executable is `HIL_LABGRID_CLIENT`, else `labgrid-client` on PATH. The identity labgrid records as the
/// holder is labgrid's (`HOST/USER`, or `LG_HOSTNAME`/`LG_USERNAME`).
package struct LabgridClient: Sendable {
    package let place: LabgridPlace
    package let executable: String
    package let deadline: Duration

    package init(_ place: LabgridPlace, environment: [String: String] = ProcessInfo.processInfo.environment,
                deadline: Duration = .seconds(30)) {
        self.place = place
        self.executable = environment["HIL_LABGRID_CLIENT"].flatMap { $0.isEmpty ? nil : $0 } ?? "labgrid-client"
        self.deadline = deadline
    }

    /// Who holds the place, and since when (`show`'s `acquired:` and `changed:`); nil holder when it is free.
    package struct Holding: Sendable, Hashable {
        package var holder: String?
        package var since: String?
    }

    /// Acquires the place for this user; `LabgridError.held` names the holder when someone else has it.
    package func acquire() async throws(LabgridError) {
        let result = try await run(["acquire"])
        guard result.termination.succeeded else {
            if result.stderr.contains("already acquired") {
                let holding = try? await show()
                throw LabgridError(.held, "\(place) is held by \(holding?.holder ?? Self.holder(in: result.stderr) ?? "another user")"
                    + (holding?.since.map { " since \($0)" } ?? ""), holder: holding?.holder)
            }
            throw failure("acquire", result)
        }
    }

    /// Releases the place (held by this user); `kick` releases it whoever holds it.
    package func release(kick: Bool = false) async throws(LabgridError) {
        let result = try await run(["release"] + (kick ? ["--kick"] : []))
        guard result.termination.succeeded else { throw failure("release", result) }
    }

    /// The place's holder now.
    package func show() async throws(LabgridError) -> Holding {
        let result = try await run(["show"])
        guard result.termination.succeeded else { throw failure("show", result) }
        var holding = Holding()
        for line in result.stdout.split(whereSeparator: \.isNewline) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("acquired:") {
                let value = text.dropFirst("acquired:".count).trimmingCharacters(in: .whitespaces)
                holding.holder = value == "None" || value.isEmpty ? nil : value
            } else if text.hasPrefix("changed:") {
                holding.since = text.dropFirst("changed:".count).trimmingCharacters(in: .whitespaces)
            }
        }
        return holding
    }

    /// `power on|off|cycle|get [--name RESOURCE]`; `get` returns what labgrid read (`on`/`off`), the others what it printed.
    package func power(_ action: String, resource: String?) async throws(LabgridError) -> String {
        let result = try await run(["power", action] + (resource.map { ["--name", $0] } ?? []))
        guard result.termination.succeeded else {
            if result.stderr.contains("is not acquired") { throw LabgridError(.notAcquired, "\(place) is not acquired by us: " + Self.message(result)) }
            throw failure("power \(action)", result)
        }
        if action == "get" {
            let words = result.stdout.split(whereSeparator: { $0.isWhitespace })
            if let last = words.last.map(String.init), last == "on" || last == "off" { return last }
            throw LabgridError(.failed, "\(place): `labgrid-client power get` printed '\(result.lastLine)', neither on nor off")
        }
        return result.lastLine
    }

    private func run(_ arguments: [String]) async throws(LabgridError) -> CommandResult {
        let argv = [executable, "-x", place.coordinator, "-p", place.place] + arguments
        let result: CommandResult
        do {
            result = try await ChildProcess.run(argv, deadline: deadline, environment: ["LG_COORDINATOR": place.coordinator])
        } catch {
            throw LabgridError(.unavailable, "cannot run \(executable) (labgrid's client: pip install labgrid, or set HIL_LABGRID_CLIENT): \(error)")
        }
        if result.timedOut {
            throw LabgridError(.unavailable, "`\(result.commandLine)` did not finish within \(Int(deadline / .seconds(1))) s (is the coordinator at \(place.coordinator) up?)")
        }
        return result
    }

    private func failure(_ action: String, _ result: CommandResult) -> LabgridError {
        let said = Self.message(result)
        if said.contains("matches nothing") {
            return LabgridError(.unknownPlace, "\(place) is unknown to the coordinator, or the coordinator does not answer (labgrid-client \(action): \(said)); check `labgrid-client -x \(place.coordinator) places`")
        }
        return LabgridError(.failed, "\(place): labgrid-client \(action) failed (\(result.termination)): \(said)")
    }

    /// labgrid-client's own error line without its `labgrid-client: Error: ` prefix.
    static func message(_ result: CommandResult) -> String {
        var line = result.lastLine
        for prefix in ["labgrid-client: Error: ", "labgrid-client: error: "] where line.hasPrefix(prefix) { line = String(line.dropFirst(prefix.count)) }
        return line
    }

    /// `HOST/USER` from "… is already acquired by HOST/USER. …".
    static func holder(in text: String) -> String? {
        guard let range = text.range(of: "already acquired by ") else { return nil }
        let rest = text[range.upperBound...]
        let word = rest.prefix { !$0.isWhitespace }
        return word.hasSuffix(".") ? String(word.dropLast()) : String(word)
    }
}

/// What went wrong with a labgrid place, in one line.
package struct LabgridError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: Sendable, Hashable {
        /// Someone else holds the place.
        case held
        /// A power action needs the place acquired by us.
        case notAcquired
        /// The coordinator does not know the place (or does not answer).
        case unknownPlace
        /// labgrid-client cannot be run or does not finish.
        case unavailable
        case failed
    }

    package var kind: Kind
    package var description: String
    /// `HOST/USER` of the holder, for `.held`.
    package var holder: String?

    package init(_ kind: Kind, _ description: String, holder: String? = nil) {
        self.kind = kind
        self.description = description
        self.holder = holder
    }
}
