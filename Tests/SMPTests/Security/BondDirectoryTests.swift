@testable import SMP
import Testing

/// Where bond files live: the given directory, else HIL_BONDS, else hil/bonds in the XDG data directory
/// ($XDG_DATA_HOME, which the XDG Base Directory Specification defaults to $HOME/.local/share).
@Suite("BondDirectory.resolved")
struct BondDirectoryTests {
    static let environment = ["HIL_BONDS": "/srv/bonds", "XDG_DATA_HOME": "/data", "HOME": "/home/hil"]

    @Test("A given path wins over the environment")
    func given() {
        #expect(BondDirectory.resolved("/given", environment: Self.environment).path == "/given")
    }

    @Test("HIL_BONDS when no path is given")
    func variable() {
        #expect(BondDirectory.resolved(nil, environment: Self.environment).path == "/srv/bonds")
        #expect(BondDirectory.resolved("", environment: Self.environment).path == "/srv/bonds")
    }

    @Test("XDG_DATA_HOME, then HOME/.local/share")
    func dataHome() {
        #expect(BondDirectory.resolved(nil, environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/hil"]).path == "/data/hil/bonds")
        #expect(BondDirectory.resolved(nil, environment: ["HOME": "/home/hil"]).path == "/home/hil/.local/share/hil/bonds")
        #expect(BondDirectory.resolved(nil, environment: ["HIL_BONDS": "", "XDG_DATA_HOME": "", "HOME": "/home/hil"]).path
                == "/home/hil/.local/share/hil/bonds")
    }

    @Test("A relative XDG_DATA_HOME is ignored, as the XDG Base Directory Specification says")
    func relativeDataHome() {
        #expect(BondDirectory.resolved(nil, environment: ["XDG_DATA_HOME": "data", "HOME": "/home/hil"]).path
                == "/home/hil/.local/share/hil/bonds")
    }
}
