/// The values a BrewGuide quantity can have at all — in a recipe, a brew's inputs, the
/// remembered preferences or a log — as opposed to the recommended V60 ranges, which only warn.
///
/// The lower bounds are the smallest amounts that are not 0 once rounded for a kitchen scale
/// (a dose to 0.1 g, water to 1 g): below them a plan would divide by zero.
public enum BrewLimits {
    /// Coffee dose, grams: from 0.05 (0.1 g once rounded) to 1000.
    public static let dose = 0.05...1000.0
    /// Target yield or step water, grams: from 0.5 (1 g once rounded) to 10,000.
    public static let yield = 0.5...10_000.0
    /// Water temperature, °C: above 0, at most 100.
    public static let maximumTemperature = 100.0
    /// A step's timer, whole seconds: from 0 to a day.
    public static let timerSeconds = 0...86_400

    /// Why `grams` cannot be a dose ("must be at least 0.05 g … (found 0.04)"), or nil.
    public static func doseProblem(_ grams: Double) -> String? {
        dose.contains(grams) ? nil
            : "must be at least 0.05 g (a smaller dose rounds to 0.0 g) and at most 1000 g (found \(found(grams)))"
    }

    /// Why `grams` cannot be a target yield, or nil.
    public static func yieldProblem(_ grams: Double) -> String? {
        yield.contains(grams) ? nil
            : "must be at least 0.5 g (a smaller yield rounds to 0 g) and at most 10000 g (found \(found(grams)))"
    }

    /// Why `celsius` cannot be a water temperature, or nil.
    public static func temperatureProblem(_ celsius: Double) -> String? {
        celsius > 0 && celsius <= maximumTemperature ? nil : "must be above 0 °C and at most 100 °C (found \(found(celsius)))"
    }

    /// The rules of a dose, a target yield and a water temperature wherever a document records
    /// them ("the dose must be at least 0.05 g …").
    static let doseRule = ValueRule<Double>.within(dose) { "the dose " + doseProblem($0)! }
    /// The rule of a reference to a recipe (a log's, a plan's, the preferences' last one).
    static let recipeIDRule = ValueRule<String>.documentID { "\"\($0)\" is not a recipe id (\(DocumentID.rule))" }
    static let yieldRule = ValueRule<Double>.within(yield) { "the target yield " + yieldProblem($0)! }
    static let temperatureRule = ValueRule<Double>.above(0, atMost: maximumTemperature) { "the water temperature " + temperatureProblem($0)! }

    /// A value as given, never rounded away (`0.04`, `1e+300`).
    static func found(_ x: Double) -> String { x.isFinite ? CanonicalJSON.formatNumber(x) : "\(x)" }
}
