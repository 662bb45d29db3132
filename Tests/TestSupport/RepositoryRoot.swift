import Foundation

/// The package's root directory (where Package.swift, rigs/ and scripts/ are), found from this file's path.
public let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
