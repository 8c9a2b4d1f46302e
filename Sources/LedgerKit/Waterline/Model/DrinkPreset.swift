import Foundation

/// The kinds of alcoholic drink (seeds: beer, wine, liquor, cocktail).
public enum DrinkType: String, JSONEnum, Sendable {
    case beer, wine, liquor, cocktail

    /// The usual serving, in US fluid ounces (nil for cocktails, which vary too much).
    public var typicalSizeOz: Double? {
        switch self {
        case .beer: 12
        case .wine: 5
        case .liquor: 1.5
        case .cocktail: nil
        }
    }

    /// The usual alcohol by volume, in percent (nil for cocktails).
    public var typicalABV: Double? {
        switch self {
        case .beer: 5
        case .wine: 12
        case .liquor: 40
        case .cocktail: nil
        }
    }
}

/// `waterline/presets/<id>.json`: a one-tap drink (seeds: DrinkPreset).
public struct DrinkPreset: CollectionDocument, Equatable {
    package static let kind = DocumentKind("waterline.preset", app: .waterline, .collection("waterline/presets", .none))

    /// The file name; the defaults have fixed ids (`beer`, `glass-of-wine`, …).
    public var id = ""
    /// What the user calls it ("Glass of Wine").
    public var name = ""
    /// The kind of drink.
    public var drinkType = DrinkType.beer
    /// Serving size in US fluid ounces, when it has one.
    public var sizeOz: Double?
    /// Alcohol by volume in percent, when known.
    public var abv: Double?
    /// How far one of these moves the Waterline (a double is 2.0).
    public var standardDrinkEstimate = 1.0
    public var createdAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    public var updatedAt = Timestamp(epochMilliseconds: 0, utcOffsetSeconds: 0)
    package var unknownFields = JSONObject()

    public init() {}

    /// A preset created at `createdAt`.
    public init(id: String, name: String, drinkType: DrinkType, sizeOz: Double?, abv: Double? = nil,
                standardDrinkEstimate: Double, createdAt: Timestamp) {
        self.id = id
        self.name = name
        self.drinkType = drinkType
        self.sizeOz = sizeOz
        self.abv = abv
        self.standardDrinkEstimate = standardDrinkEstimate
        self.createdAt = createdAt
        updatedAt = createdAt
    }

    package static let fields: [Field<DrinkPreset>] = [
        .required("id", { $0.id }, { $0.id = $1 }, .documentID(DocumentID.problem)),
        .required("name", { $0.name }, { $0.name = $1 }, .text(.notBlank, maxLength: 80, nameProblem)),
        .required("drinkType", { $0.drinkType }, { $0.drinkType = $1 }),
        .optional("sizeOz", { $0.sizeOz }, { $0.sizeOz = $1 }, AlcoholMeta.sizeRule),
        .optional("abv", { $0.abv }, { $0.abv = $1 }, AlcoholMeta.abvRule),
        .required("standardDrinkEstimate", { $0.standardDrinkEstimate }, { $0.standardDrinkEstimate = $1 }, AlcoholMeta.estimateRule),
        .required("createdAt", { $0.createdAt }, { $0.createdAt = $1 }),
        .required("updatedAt", { $0.updatedAt }, { $0.updatedAt = $1 }),
    ]

    /// The five presets a new ledger starts with (US-016), with ids that do not depend on the
    /// machine, so that two ledgers initialised separately agree.
    public static func defaults(createdAt now: Timestamp) -> [DrinkPreset] {
        [
            DrinkPreset(id: "beer", name: "Beer", drinkType: .beer, sizeOz: 12, standardDrinkEstimate: 1.0, createdAt: now),
            DrinkPreset(id: "glass-of-wine", name: "Glass of Wine", drinkType: .wine, sizeOz: 5, standardDrinkEstimate: 1.0, createdAt: now),
            DrinkPreset(id: "shot", name: "Shot", drinkType: .liquor, sizeOz: 1.5, standardDrinkEstimate: 1.0, createdAt: now),
            DrinkPreset(id: "cocktail", name: "Cocktail", drinkType: .cocktail, sizeOz: nil, standardDrinkEstimate: 1.0, createdAt: now),
            DrinkPreset(id: "double", name: "Double", drinkType: .liquor, sizeOz: 3, standardDrinkEstimate: 2.0, createdAt: now),
        ]
    }

    /// Why `name` cannot name a preset (empty, longer than 80 characters), or nil.
    public static func nameProblem(_ name: String) -> String? {
        if name.trimmingWhitespace(newlines: true).isEmpty { return "must not be empty" }
        if name.count > 80 { return "must be at most 80 characters (found \(name.count))" }
        return nil
    }

    /// The name as presets are looked up by it (case-insensitively), for the check that no
    /// two presets share one.
    public var tags: [String] { [Self.nameTag + name.lowercased()] }
    static let nameTag = "preset-name:"

    public func validate() -> [DocumentIssue] { Self.ruleIssues(self, at: .root) }
}
