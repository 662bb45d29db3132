/// The version `hil --version` prints: the release this tree is, bumped with each resolved batch of work.
enum HILVersion {
    static let current = "0.15.0-dev"
}
