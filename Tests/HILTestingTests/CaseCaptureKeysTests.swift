import HCITransports
import HILTesting
import Testing

/// A bench case's capture keeps the keys only when `HIL_CAPTURE_KEYS` is `1` (`hil run --capture-keys`).
@Suite struct CaseCaptureKeysTests {
    @Test(arguments: [([String: String](), CaptureKeys.redacted), (["HIL_CAPTURE_KEYS": "1"], .kept),
                      (["HIL_CAPTURE_KEYS": "0"], .redacted), (["HIL_CAPTURE_KEYS": "yes"], .redacted)])
    func theEnvironmentDecides(environment: [String: String], keys: CaptureKeys) {
        #expect(CaseCapture.keys(environment: environment) == keys)
    }
}
