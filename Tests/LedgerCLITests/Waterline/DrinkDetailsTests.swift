import Foundation
import LedgerKit
import LedgerTestSupport
import Testing

/// What a drink is said to be — sizes in any unit a menu uses, an ABV, a serving — is used for
/// its estimate, or the person is told why it was not.
@Suite struct DrinkDetailsTests {
    func at(_ minutes: Int) -> [String: String] {
        ["LEDGER_NOW": Timestamp(iso8601: "2026-11-21T21:00:00+01:00")!.adding(minutes: Double(minutes)).iso8601]
    }

    func night() throws -> TestLedger {
        let ledger = try TestLedger()
        #expect(ledger.run(arguments: ["waterline", "start"], env: at(0)).status == 0)
        return ledger
    }

    /// "Drink details ignored without a word: `drink --abv 40` (no size or type), `drink --size
    /// 24` (no type) and `drink --preset cocktail --abv 15` count exactly 1.0. Use them, or say
    /// which were not used and why."
    @Test(arguments: [
        (["--abv", "40"], "--abv 40 was not used: an ABV counts only with a size", "--abv"),
        (["--size", "24"], "--size 24 was not used: a size counts only with an ABV, or a --type", "--size"),
        (["--preset", "cocktail", "--abv", "15"], "--abv 15 was not used: an ABV counts only with a size", "--abv"),
        (["--preset", "cocktail", "--size", "8"], "--size 8 was not used", "--size"),
        (["--type", "cocktail", "--abv", "15"], "--abv 15 was not used", "--abv"),
    ])
    func aDetailTheEstimateCannotUseIsNamed(_ flags: [String], _ note: String, _ flag: String) throws {
        let ledger = try night()
        let r = ledger.run(arguments: ["waterline", "drink"] + flags, env: at(5))
        #expect(r.status == 0, "\(r)")
        #expect(r.stderr.contains("ledger: note: " + note), "\(r)")
        let json = ledger.run(arguments: ["waterline", "drink", "--json"] + flags, env: at(6)).json
        #expect(json["unused"] == .array([.string(flag)]), "\(json)")
        #expect(json["entry"]?["alcoholMeta"]?["standardDrinkEstimate"] == .number(1))
    }

    /// The same details with what they need are used, and nothing is said.
    @Test func detailsThatCountSayNothing() throws {
        let ledger = try night()
        for (flags, std) in [(["--abv", "40", "--size", "1.5"], 1.0), (["--size", "24", "--type", "beer"], 2.0),
                             (["--preset", "cocktail", "--size", "6", "--abv", "15"], 1.5), (["--preset", "beer", "--abv", "8"], 1.6)] {
            let r = ledger.run(arguments: ["waterline", "drink", "--json"] + flags, env: at(5))
            #expect(r.stderr.isEmpty && r.json["unused"] == .array([]), "\(flags): \(r)")
            #expect(r.json["entry"]?["alcoholMeta"]?["standardDrinkEstimate"] == .number(std), "\(flags): \(r)")
        }
    }

    /// "a cocktail serving's estimate says "(as given)" when nothing was given".
    @Test func aCocktailServingSaysItIsTheServing() throws {
        let ledger = try night()
        let strong = ledger.run(arguments: ["waterline", "drink", "--size", "strong"], env: at(5))
        #expect(strong.stdout.contains("2.0 standard drinks (a strong cocktail serving)"), "\(strong)")
        let standard = ledger.run(arguments: ["waterline", "drink", "--type", "cocktail", "--size", "standard"], env: at(6))
        #expect(standard.stdout.contains("1.0 standard drink (a standard cocktail serving)"), "\(standard)")
        #expect(ledger.run(arguments: ["waterline", "drink", "--std", "2"], env: at(7)).stdout.contains("(as given)"))
    }

    /// "Metric sizes: `--size 0.5l`, `33cl`, `--amount 1l` are refused (European menus)."
    @Test func litresCentilitresAndDecilitresAreTaken() throws {
        let ledger = try night()
        #expect(ledger.run("waterline", "settings", "set", "units", "ml").status == 0)
        let beer = ledger.run(arguments: ["waterline", "drink", "--type", "beer", "--size", "0.5l", "--json"], env: at(5))
        #expect(beer.status == 0, "\(beer)")
        // 500 ml = 16.91 oz; at 5 % it is 1.4 standard drinks.
        #expect(beer.json["entry"]?["alcoholMeta"]?["sizeOz"] == .number(16.91), "\(beer)")
        #expect(beer.json["entry"]?["alcoholMeta"]?["standardDrinkEstimate"] == .number(1.4))
        let small = ledger.run(arguments: ["waterline", "drink", "--type", "beer", "--size", "33cl"], env: at(6))
        #expect(small.stdout.contains("Logged beer · 330 ml"), "\(small)")
        let wine = ledger.run(arguments: ["waterline", "drink", "--type", "wine", "--size", "1.5 dl"], env: at(7))
        #expect(wine.stdout.contains("Logged wine · 150 ml"), "\(wine)")
        let water = ledger.run(arguments: ["waterline", "water", "--amount", "1l", "--json"], env: at(8))
        #expect(water.json["entry"]?["waterMeta"] == .object(["amount": .number(1000), "units": .string("ml")]), "\(water)")
        #expect(ledger.run(arguments: ["waterline", "water", "--amount", "0.5L"], env: at(9)).stdout.contains("Logged water · 500 ml"))
        // The limit holds in litres too; a bad unit is named.
        let big = ledger.run(arguments: ["waterline", "water", "--amount", "2.5l"], env: at(10))
        #expect(big.status == 2 && big.stderr.contains("--amount"), "\(big)")
        let bad = ledger.run(arguments: ["waterline", "drink", "--size", "33kl"], env: at(10))
        #expect(bad.status == 2 && bad.stderr.contains("--size must be a positive size like 12, 12oz, 330ml, 33cl or 0.5l"), "\(bad)")
    }

    /// "250 ml becomes 251 ml after switching units twice": a default amount survives any
    /// number of switches.
    @Test func switchingUnitsBackAndForthKeepsTheAmount() throws {
        let ledger = try TestLedger()
        func amount() -> String {
            ledger.run("waterline", "settings").stdout.split(separator: "\n").first { $0.contains("defaultWaterAmount") }.map(String.init) ?? ""
        }
        // 250 ml given while in ounces, then ounces switched to millilitres: 250 ml again.
        #expect(ledger.run("waterline", "settings", "set", "defaultWaterAmount", "250ml").status == 0)
        #expect(ledger.run("waterline", "settings", "set", "units", "ml").status == 0)
        #expect(amount().contains("250 ml"), "\(amount())")
        // Any amount survives any number of switches.
        #expect(ledger.run("waterline", "settings", "set", "defaultWaterAmount", "300").status == 0)
        for _ in 0..<3 {
            #expect(ledger.run("waterline", "settings", "set", "units", "oz").status == 0)
            #expect(amount().contains("10.1 oz"), "\(amount())")
            #expect(ledger.run("waterline", "settings", "set", "units", "ml").status == 0)
        }
        #expect(amount().contains("300 ml"), "\(amount())")
    }

    /// A drink from the Beer preset (US-016: "Beer", 12 oz, 1.0 std) corrected to wine is a
    /// 12 oz wine — 12 oz at wine's typical 12 % ABV is 2.4 standard drinks — and is no longer
    /// named "Beer": not in the edit's answer, the timeline, the summary or the file.
    @Test func aDrinkGivenAnotherTypeThanItsPresetsIsNotNamedAfterThePreset() throws {
        let ledger = try night()
        #expect(ledger.run(arguments: ["waterline", "drink", "--preset", "beer"], env: at(10)).status == 0)
        let edit = ledger.run(arguments: ["waterline", "edit", "last", "--type", "wine"], env: at(20))
        #expect(edit.status == 0, "\(edit)")
        #expect(edit.stdout.contains("wine · 12 oz · 2.4 std (12 oz at 12% ABV, typical for wine)"), "\(edit)")
        #expect(!edit.stdout.contains("Beer"), "\(edit)")
        for view in ["entries", "summary"] {
            let r = ledger.run(arguments: ["waterline", view], env: at(21))
            #expect(r.stdout.contains("wine · 12 oz · 2.4 std") && !r.stdout.contains("Beer"), "\(view): \(r)")
        }
        let meta = ledger.run(arguments: ["waterline", "entries", "--json"], env: at(21)).json.arrayValue?.first?["alcoholMeta"]
        #expect(meta?["drinkType"] == .string("wine") && meta?["presetId"] == nil && meta?["presetName"] == nil, "\(String(describing: meta))")
        // Logged so at once, too; the same type keeps the preset's name.
        let logged = ledger.run(arguments: ["waterline", "drink", "--preset", "beer", "--type", "wine", "--json"], env: at(22)).json
        #expect(logged["entry"]?["alcoholMeta"]?["presetName"] == nil, "\(logged)")
        let same = ledger.run(arguments: ["waterline", "drink", "--preset", "beer", "--type", "beer", "--json"], env: at(23)).json
        #expect(same["entry"]?["alcoholMeta"]?["presetName"] == .string("Beer"), "\(same)")
    }
}
