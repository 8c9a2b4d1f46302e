import Foundation
import LedgerKit

/// What every `ledger waterline` command starts with: the environment, the store, and the
/// active session with the notices that go with it.
struct WaterlineRun {
    let env: CommandEnvironment
    let waterline: WaterlineStore
    let json: Bool

    init(_ global: GlobalOptions, json: Bool) throws {
        env = try global.environment()
        waterline = WaterlineStore(env.store)
        self.json = json
    }

    var now: Timestamp { env.now }

    /// Prints notes about repairs and, when the active session is abandoned, the prompt to end
    /// it (US-025): on stdout before the command's own output, on stderr with `--json`.
    func announce(_ notes: [String], active: Session?, settings: WaterlineSettings?) {
        var lines = notes
        if let s = active, let settings, WaterlineEngine.isAbandoned(s, now: now, afterHours: settings.abandonedAfterHours) {
            lines.append(WaterlineText.abandonedNotice(s, now: now, clock: env.clock))
        }
        for line in lines {
            if json { Console.error(line) } else { Console.print(Style.yellow(line)) }
        }
    }

    /// The active session (after any repair), announced.
    func active() throws -> (Session?, WaterlineSettings) {
        let (active, notes) = try waterline.activeSession()
        let settings = try waterline.settings()
        announce(notes, active: active?.session, settings: settings)
        return (active?.session, settings)
    }
}

/// Texts and numbers as the Waterline commands show them.
enum WaterlineText {
    /// "Your session has been running for 14 hours. …" (US-025).
    static func abandonedNotice(_ s: Session, now: Timestamp, clock: CommandClock) -> String {
        let hours = WaterlineEngine.hoursRunning(s, now: now)
        var text = "Your session has been running for \(hours) \(hours == 1 ? "hour" : "hours"). End it with `ledger waterline end`"
        if let last = s.entries.map(\.timestamp).max() {
            text += " (or `ledger waterline end --time \(last.iso8601)` to end it at your last log, \(time(last, clock)))"
        }
        return text + ", or keep going."
    }

    /// A Waterline value: "+2.0", "0.0", "-1.5", "+1.25".
    static func value(_ v: Double) -> String {
        let s = number(v)
        return v > 0 ? "+" + s : s
    }

    /// A number with one decimal, or two when it needs them: "1.0", "1.25".
    static func number(_ v: Double) -> String {
        let x = v == 0 ? 0 : v
        return (x * 10).rounded() == x * 10 ? String(format: "%.1f", x) : String(format: "%.2f", x)
    }

    /// An amount without needless decimals: "8", "8.5", "250".
    static func amount(_ v: Double) -> String { CanonicalJSON.formatNumber((v * 10).rounded() / 10) }

    /// "1 drink", "2 drinks".
    static func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    /// "1.0 standard drink", "2.5 standard drinks".
    static func standardDrinks(_ v: Double) -> String { "\(number(v)) standard drink\(v == 1 ? "" : "s")" }

    /// The wall-clock time in the reader's zone: "23:40".
    static func time(_ t: Timestamp, _ clock: CommandClock) -> String {
        let l = clock.timestamp(t.date).local
        return String(format: "%02d:%02d", l.hour, l.minute)
    }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Sat 21 Nov 2026", as recorded where the session started.
    static func date(_ t: Timestamp) -> String {
        let d = t.local.date
        return "\(weekdays[d.isoWeekday - 1]) \(d.day) \(months[d.month - 1]) \(d.year)"
    }

    /// "2 h 25 min", "45 min".
    static func duration(minutes: Int) -> String {
        minutes >= 60 ? "\(minutes / 60) h \(String(format: "%02d", minutes % 60)) min" : "\(minutes) min"
    }

    /// "beer · 12 oz · 1.0 std" / "water · 8 oz" (without the estimate: "beer · 12 oz").
    static func describe(_ e: LogEntry, estimate: Bool = true) -> String {
        switch e.type {
        case .alcohol:
            let m = e.alcoholMeta
            var parts = [m?.drinkType?.rawValue ?? "drink"]
            if let s = m?.sizeOz { parts.append("\(amount(s)) oz") }
            if let a = m?.abv { parts.append("\(amount(a))%") }
            if estimate { parts.append("\(number(m?.standardDrinkEstimate ?? 0)) std") }
            return parts.joined(separator: " · ")
        case .water:
            guard let w = e.waterMeta else { return "water" }
            return "water · \(amount(w.amount)) \(w.units.rawValue)"
        }
    }

    /// "Water due in: 2 drinks"; once N drinks have been had since water (more are possible:
    /// each further drink repeats the reminder), "Water due now — you've had 16 drinks since water".
    static func waterDue(_ state: WaterlineState, n: Int) -> String {
        let left = WaterlineEngine.drinksUntilWaterDue(state, waterEveryNDrinks: n)
        return left > 0 ? "Water due in: \(count(left, "drink"))"
            : "Water due now — you've had \(count(state.alcoholCountSinceLastWater, "drink")) since water"
    }

    /// Where the Waterline stands, in neutral words (US-010).
    static func position(_ state: WaterlineState) -> String {
        if state.isWarning { return "Drink water to return to center" }
        if state.waterlineValue >= 1 { return "Above center" }
        if state.waterlineValue <= -1 { return "Below center — buffered" }
        return "Balanced — at center"
    }

    /// A horizontal Waterline gauge: the centre band, the warning threshold, and the value.
    ///
    ///     -5 ·····················▕┃▏━━━━━━━━●······┊·········· +5
    static func gauge(_ state: WaterlineState, threshold: Int) -> [String] {
        let v = state.waterlineValue
        let range = Int(min(20, max(5, Double(threshold + 1), abs(v).rounded(.up))))
        let half = 20
        func column(_ x: Double) -> Int { half + Int((x / Double(range) * Double(half)).rounded()) }
        var cells = Array(repeating: "·", count: 2 * half + 1)
        let at = min(max(column(v), 0), 2 * half)
        if at != half {
            for i in min(at, half)...max(at, half) where i != half { cells[i] = "━" }
        }
        let t = column(Double(threshold))
        if t >= 0, t <= 2 * half, t != at { cells[t] = "┊" }
        cells[half - 1] = cells[half - 1] == "━" ? "━" : "▕"
        cells[half + 1] = cells[half + 1] == "━" ? "━" : "▏"
        cells[half] = "┃"
        cells[at] = abs(v) > Double(range) ? (v > 0 ? "▶" : "◀") : "●"
        var line = cells.joined()
        if state.isWarning { line = Style.red(line) }
        let left = "-\(range)", right = "+\(range)"
        var scale = Array(repeating: " ", count: 2 * half + 1)
        scale[half] = "0"
        let label = "warning \(threshold)"
        if t + label.count <= 2 * half + 1, t > half + 1 {
            for (i, c) in label.enumerated() { scale[t + i] = String(c) }
        }
        return [
            "  \(left.padding(toLength: 4, withPad: " ", startingAt: 0))\(line) \(right)",
            "      \(scale.joined())".replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression),
        ]
    }

    // MARK: - Parsing

    /// An amount of water: a volume (see `parseVolume`) of at most 2 litres, like an entry's.
    static func parseWater(_ text: String, option: String, unit: VolumeUnit) throws -> (Double, VolumeUnit) {
        let (v, u) = try parseVolume(text, option: option, unit: unit)
        guard VolumeUnit.ml.convert(v, from: u) <= WaterMeta.maximumMillilitres else {
            throw LedgerError.usage("\(option) must be at most 2000 ml (67.6 oz) (found \"\(text)\")")
        }
        return (v, u)
    }

    /// A volume: `250`, `250ml`, `8oz`, `8.5 oz`; a bare number is in `unit`.
    static func parseVolume(_ text: String, option: String, unit: VolumeUnit) throws -> (Double, VolumeUnit) {
        var t = text.trimmingCharacters(in: .whitespaces).lowercased()
        var u = unit
        for candidate in VolumeUnit.allCases where t.hasSuffix(candidate.rawValue) {
            u = candidate
            t = String(t.dropLast(candidate.rawValue.count)).trimmingCharacters(in: .whitespaces)
        }
        guard let v = Double(t), v.isFinite, v > 0 else {
            throw LedgerError.usage("\(option) must be a positive amount like 8, 8oz or 250ml (found \"\(text)\")")
        }
        return (v, u)
    }

    /// A drink size in ounces: `12`, `12oz`, or `330ml` (converted), at most 68 oz (2 litres).
    static func parseSize(_ text: String, option: String) throws -> Double {
        let (v, u) = try parseVolume(text, option: option, unit: .oz)
        let oz = u == .oz ? v : VolumeUnit.oz.rounded(VolumeUnit.oz.convert(v, from: .ml))
        guard oz > 0, oz <= AlcoholMeta.maximumSizeOz else {
            throw LedgerError.usage("\(option) must be more than 0 and at most \(CanonicalJSON.formatNumber(AlcoholMeta.maximumSizeOz)) oz (2 litres) (found \"\(text)\")")
        }
        return oz
    }

    /// A standard-drink count for `option` (`--std`): more than 0, at most 20.
    static func parseStandardDrinks(_ text: String, option: String) throws -> Double {
        guard let v = Double(text), v > 0, v <= AlcoholMeta.maximumEstimate else {
            throw LedgerError.usage("\(option) must be a number of standard drinks more than 0 and at most \(CanonicalJSON.formatNumber(AlcoholMeta.maximumEstimate)) (found \"\(text)\")")
        }
        return v
    }

    /// Refuses an estimate worked out from the flags (size × ABV, or a preset scaled to a new
    /// size) that no single drink can have, naming the flags that gave it.
    static func checkEstimate(_ e: DrinkEstimate, size: String?, abv: String?, type: String?) throws {
        guard e.meta.standardDrinkEstimate > AlcoholMeta.maximumEstimate else { return }
        let given = [size.map { "--size \($0)" }, abv.map { "--abv \($0)" }, type.map { "--type \($0)" }].compactMap { $0 }
        throw LedgerError.usage("\(given.joined(separator: " and ")) give \(WaterlineText.standardDrinks(e.meta.standardDrinkEstimate)) (\(e.reason)); "
            + "one entry counts at most \(CanonicalJSON.formatNumber(AlcoholMeta.maximumEstimate)): check the size, or say what it counts for with --std")
    }

    /// A percentage between 0 and 100 (`5`, `5%`).
    static func parseABV(_ text: String) throws -> Double {
        let t = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let v = Double(t), v >= 0, v <= 100 else {
            throw LedgerError.usage("--abv must be a percentage between 0 and 100 (found \"\(text)\")")
        }
        return v
    }

    /// A drink type.
    static func parseType(_ text: String) throws -> DrinkType {
        if let t = DrinkType(rawValue: text.lowercased()) { return t }
        throw LedgerError.usage("--type must be one of \(DrinkType.allCases.map(\.rawValue).joined(separator: ", ")) (found \"\(text)\")"
            + Suggestion.didYouMean(text, among: DrinkType.allCases.map(\.rawValue)))
    }
}

/// The `--json` shapes of the Waterline commands (SPEC §7 keys, and more).
enum WaterlineJSON {
    /// `status --json`: the WaterlineState keys, `sessionId` (null without a session) and more.
    static func status(_ session: Session?, settings: WaterlineSettings, now: Timestamp) -> JSONValue {
        var o = (session?.state ?? WaterlineState()).json.objectValue!
        o["sessionId"] = session.map { .string($0.id) } ?? .null
        o["startTime"] = session.map { $0.startTime.json } ?? .null
        o["isActive"] = .bool(session != nil)
        let rules = session?.rules ?? settings.rules
        o["waterEveryNDrinks"] = .number(Double(rules.waterEveryNDrinks))
        o["warningThreshold"] = .number(Double(rules.warningThreshold))
        o["waterDueInDrinks"] = session.map { .number(Double(WaterlineEngine.drinksUntilWaterDue($0.state, waterEveryNDrinks: rules.waterEveryNDrinks))) } ?? .null
        o["nextReminder"] = session.flatMap { WaterlineEngine.nextTimeReminder(for: $0, settings: settings, now: now) }.map(\.json) ?? .null
        o["durationMinutes"] = session.map { .number(Double($0.summary(now: now).durationMinutes)) } ?? .null
        o["abandoned"] = .bool(session.map { WaterlineEngine.isAbandoned($0, now: now, afterHours: settings.abandonedAfterHours) } ?? false)
        o["hoursRunning"] = session.map { .number(Double(WaterlineEngine.hoursRunning($0, now: now))) } ?? .null
        return .object(o)
    }

    /// One entry, with the Waterline value after it.
    static func entry(_ step: WaterlineStep, sessionID: String) -> JSONValue {
        var o = step.entry.json.objectValue!
        o["sessionId"] = .string(sessionID)
        o["waterlineValue"] = .number(step.after.waterlineValue)
        return .object(o)
    }

    /// A session's summary (`summary --json`).
    static func summary(_ session: Session, settings: WaterlineSettings, now: Timestamp) -> JSONValue {
        let s = session.summary(now: now)
        var o = s.json.objectValue!
        o["sessionId"] = .string(session.id)
        o["startTime"] = session.startTime.json
        o["endTime"] = session.endTime?.json ?? .null
        o["isActive"] = .bool(session.isActive)
        o["totalWaterVolume"] = .number(s.totalWater(in: settings.units))
        o["units"] = .string(settings.units.rawValue)
        o["waterEveryNDrinks"] = .number(Double(session.waterEveryNDrinks))
        o["warningThreshold"] = .number(Double(session.warningThreshold))
        o["entries"] = .array(WaterlineEngine.replay(session.entries, rules: session.rules).map { entry($0, sessionID: session.id) })
        return .object(o)
    }

    /// One line of `sessions --json`.
    static func sessionLine(_ session: Session, now: Timestamp) -> JSONValue {
        let s = session.summary(now: now)
        return .object([
            "id": .string(session.id), "startTime": session.startTime.json, "endTime": session.endTime?.json ?? .null,
            "isActive": .bool(session.isActive), "durationMinutes": .number(Double(s.durationMinutes)),
            "totalAlcoholCount": .number(Double(s.totalAlcoholCount)), "totalWaterCount": .number(Double(s.totalWaterCount)),
            "totalStandardDrinks": .number(s.totalStandardDrinks), "adherencePercent": s.adherencePercent.map(JSONValue.number) ?? .null,
            "finalWaterlineValue": .number(s.finalWaterlineValue),
        ])
    }

    /// One preset (`presets --json`): its document with every key present.
    static func preset(_ p: DrinkPreset) -> JSONValue {
        var o = p.json.objectValue!
        o["sizeOz"] = p.sizeOz.map(JSONValue.number) ?? .null
        o["abv"] = p.abv.map(JSONValue.number) ?? .null
        return .object(o)
    }
}
