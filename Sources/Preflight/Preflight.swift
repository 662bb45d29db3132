import Foundation

/// Lint of an app's Bluetooth declarations before store submission.
///
/// `Preflight` reads an iOS Info.plist (XML or binary, or inside an `.ipa`) or an Android manifest (text or
/// binary AXML, or inside an `.apk`), checks it against the rules in `RuleCatalog`, and returns a `Report`
/// that the formatters in `ReportFormat` render as text, JSON, SARIF 2.1.0 or JUnit XML.
package enum Preflight {
    /// Lints an iOS Info.plist or `.ipa` at `path`.
    package static func lintIOS(path: String, options: IOSOptions = IOSOptions()) throws(PreflightError) -> Report {
        try lintIOS(data: try read(path), name: path, options: options)
    }

    /// Lints an iOS Info.plist or `.ipa` given as bytes; `name` is used in locations and errors.
    package static func lintIOS(data: Data, name: String, options: IOSOptions = IOSOptions()) throws(PreflightError) -> Report {
        let (plistData, location) = try unpack(data, name: name) { archive throws(PreflightError) in
            let candidates = archive.entries.filter(isAppInfoPlist).sorted { $0.path < $1.path }
            guard let entry = candidates.first else {
                throw .unexpectedContent(file: name, message: "no Payload/*.app/Info.plist in this archive: not an iOS app (.ipa)")
            }
            return entry
        }
        let (root, _) = try PropertyListReader.readDictionary(plistData, file: location.description)
        return IOSLinter.lint(root, location: location, options: options)
    }

    /// Lints an AndroidManifest.xml (text or binary) or `.apk` at `path`.
    package static func lintAndroid(path: String, options: AndroidOptions = AndroidOptions()) throws(PreflightError) -> Report {
        try lintAndroid(data: try read(path), name: path, options: options)
    }

    /// Lints an AndroidManifest.xml (text or binary) or `.apk` given as bytes; `name` is used in locations and errors.
    package static func lintAndroid(data: Data, name: String, options: AndroidOptions = AndroidOptions()) throws(PreflightError) -> Report {
        let (manifestData, location) = try unpack(data, name: name) { archive throws(PreflightError) in
            guard let entry = archive.entry("AndroidManifest.xml") else {
                if archive.entry("base/manifest/AndroidManifest.xml") != nil {
                    throw .unexpectedContent(file: name, message: "an Android App Bundle (.aab) keeps its manifest as protobuf, which is not supported: lint an APK or the merged AndroidManifest.xml")
                }
                throw .unexpectedContent(file: name, message: "no AndroidManifest.xml at the top of this archive: not an Android app (.apk)")
            }
            return entry
        }
        let root: XMLTextElement
        if AXMLReader.looksLikeBinaryXML(manifestData) {
            root = try AXMLReader.parse(manifestData, file: location.description)
        } else {
            root = try XMLTextReader.parse(manifestData, file: location.description)
        }
        let manifest = try AndroidManifest(root, file: location.description)
        return AndroidLinter.lint(manifest, location: location, options: options)
    }

    /// The bytes to lint and where they are: `data` itself, or, when it is an archive, the entry `pick` chooses
    /// (or throws for), extracted.
    static func unpack(
        _ data: Data, name: String, entry pick: (ZipArchive) throws(PreflightError) -> ZipArchive.Entry
    ) throws(PreflightError) -> (Data, SourceLocation) {
        guard ZipArchive.looksLikeZip(data) else { return (data, SourceLocation(file: name)) }
        let archive = try ZipArchive(data, file: name)
        let entry = try pick(archive)
        return (try archive.extract(entry), SourceLocation(file: name, entry: entry.path))
    }

    /// `Payload/<name>.app/Info.plist`, exactly one level down.
    static func isAppInfoPlist(_ entry: ZipArchive.Entry) -> Bool {
        let parts = entry.path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 3 && parts[0] == "Payload" && parts[1].hasSuffix(".app") && parts[2] == "Info.plist"
    }

    /// The bytes of the file at `path` (memory-mapped when the system allows), or a clear error.
    static func read(_ path: String) throws(PreflightError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadable(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw .unreadable(path: path, reason: "it is a directory (give the Info.plist, AndroidManifest.xml, .ipa or .apk inside it)")
        }
        // Through symbolic links: reading a FIFO would wait for a writer.
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let type = (try? FileManager.default.attributesOfItem(atPath: target))?[.type] as? FileAttributeType
        guard type == nil || type == .typeRegular else {
            throw .unreadable(path: path, reason: "it is not a regular file (a FIFO, socket or device)")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw .unreadable(path: path, reason: reason)
        }
    }
}
