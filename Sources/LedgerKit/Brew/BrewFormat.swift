/// How BrewGuide writes its quantities in messages and screens.
public enum BrewFormat {
    /// `15`, `15.5`, `-2` — at most one decimal, none when whole.
    public static func number(_ x: Double) -> String {
        let r = (x * 10).rounded() / 10
        guard r.isFinite, abs(r) < 1e15 else { return BrewLimits.found(x) }
        if r == r.rounded() { return String(Int64(r)) }
        return String(format: "%.1f", r)
    }

    /// Water or yield: `250 g` (`245.5 g` when a hand edit has a fraction).
    public static func grams(_ x: Double) -> String { number(x) + " g" }

    /// A coffee dose, always with its decimal for a 0.1 g scale: `15.0 g`.
    public static func dose(_ x: Double) -> String { String(format: "%.1f g", (x * 10).rounded() / 10) }

    /// `94 °C`.
    public static func temperature(_ x: Double) -> String { number(x) + " °C" }

    /// `1:16.7`.
    public static func ratio(_ r: Double) -> String { "1:" + String(format: "%.1f", (r * 10).rounded() / 10) }

    /// `0:45`, `3:00`, `12:05` (negative values show as `0:00`).
    public static func clock(_ seconds: Int) -> String {
        let s = max(0, seconds)
        let m = s / 60, r = s % 60
        return "\(m):" + (r < 10 ? "0" : "") + String(r)
    }
}
