import Foundation

/// How progress and messages print times.
public enum ProgressText {
    /// "0.84 s", "12.3 s", "1 min 03 s", "2 h 05 min".
    public static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "? s" }
        guard seconds < 1e9 else { return "> 30 years" }
        if seconds < 10 { return String(format: "%.2f s", seconds) }
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return String(format: "%d min %02d s", whole / 60, whole % 60) }
        return String(format: "%d h %02d min", whole / 3600, (whole % 3600) / 60)
    }
}
