/// How BrewGuide writes its quantities in messages and screens.
public enum BrewFormat {
    /// `15`, `15.5`, `-2` — at most one decimal, none when whole.
    public static func number(_ x: Double) -> String {
        let r = (x * 10).rounded() / 10
        guard r.isFinite, abs(r) < 1e15 else { return BrewLimits.found(x) }
        if r == r.rounded() { return String(Int64(r)) }
        return NumberText.fixed(r, decimals: 1)
    }

    /// Water or yield: `250 g` (`245.5 g` when a hand edit has a fraction).
    public static func grams(_ x: Double) -> String { number(x) + " g" }

    /// A coffee dose, always with its decimal for a 0.1 g scale: `15.0 g`.
    public static func dose(_ x: Double) -> String { NumberText.fixed((x * 10).rounded() / 10, decimals: 1) + " g" }

    /// `94 °C`.
    public static func temperature(_ x: Double) -> String { number(x) + " °C" }

    /// `1:16.7`.
    public static func ratio(_ r: Double) -> String { "1:" + NumberText.fixed((r * 10).rounded() / 10, decimals: 1) }

    /// `0:45`, `3:00`, `12:05` (negative values show as `0:00`).
    public static func clock(_ seconds: Int) -> String {
        let s = max(0, seconds)
        let m = s / 60, r = s % 60
        return "\(m):" + (r < 10 ? "0" : "") + String(r)
    }

    /// A span of time in words, rounded down: `45 s`, `12 min`, `3 h 12 min`, `2 days 3 h`.
    public static func duration(_ seconds: Double) -> String {
        let s = Int(max(0, min(seconds, 1e12)))
        let days = s / 86_400, hours = s % 86_400 / 3600, minutes = s % 3600 / 60
        if days > 0 { return "\(days) day" + (days == 1 ? "" : "s") + (hours > 0 ? " \(hours) h" : "") }
        if hours > 0 { return "\(hours) h" + (minutes > 0 ? " \(minutes) min" : "") }
        return minutes > 0 ? "\(minutes) min" : "\(s) s"
    }
}
