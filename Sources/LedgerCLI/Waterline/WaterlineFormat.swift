import ArgumentParser
import Foundation
import LedgerKit

/// What every `ledger waterline` command starts with: the environment and the store, and the
/// notices that go with the active session.
struct WaterlineRun {
    let env: CommandEnvironment
    let waterline: WaterlineStore
    let json: Bool

    init(_ global: GlobalOptions, json: Bool) throws { try self.init(global.choice, json: json) }

    init(_ global: LedgerChoice, json: Bool) throws {
        env = try global.environment()
        waterline = WaterlineStore(env.store)
        self.json = json
    }

    var now: Timestamp { env.now }

    /// Prints notes about repairs and, when the active session is abandoned, the prompt to end
    /// it (US-025): on stdout before the command's own output, on stderr with `--json`.
    func announce(_ notes: [String], active: Session?, settings: WaterlineSettings?) {
        var lines = notes
        if let s = active, let problem = WaterlineStore.entryAheadProblem(s, path: nil, now: now) {
            lines.append(problem + ".")
        }
        if let s = active, let settings, WaterlineEngine.isAbandoned(s, now: now, afterHours: settings.abandonedAfterHours) {
            lines.append(WaterlineText.abandonedNotice(s, now: now, clock: env.clock))
        }
        for line in lines {
            if json { Console.error(line) } else { Console.print(Style.yellow(line)) }
        }
    }

    /// After a listing that showed what it could: names each document a hand edit made
    /// invalid, with its problems, on stderr, and exits with status 1 when there was one.
    func endListing(_ invalid: [LedgerError]) throws {
        guard !invalid.isEmpty else { return }
        for e in invalid { Console.error(e) }
        throw ExitCode(1)
    }

    /// What holds now (the active session after any repair, the settings), announced.
    func current() throws -> WaterlineStore.Current {
        let current = try waterline.current()
        announce(current.notes, active: current.session, settings: current.settings)
        return current
    }
}

/// Texts and numbers as the Waterline commands show them.
enum WaterlineText {
    /// "Your session has been running for 14 hours. …" (US-025).
    static func abandonedNotice(_ s: Session, now: Timestamp, clock: CommandClock) -> String {
        let hours = WaterlineEngine.hoursRunning(s, now: now)
        var text = "Your session has been running for \(hours) \(hours == 1 ? "hour" : "hours"). End it with `ledger waterline end`"
        if let last = s.entries.map(\.timestamp).max() {
            text += " (or `ledger waterline end --time \(last.iso8601)` to end it at your last log, \(Times(s, clock).show(last)))"
        }
        return text + ", or keep going with `ledger waterline keep-going` (asked again after as long again)."
    }

    /// A Waterline value, signed: "+2.0", "0.0", "-1.5", "+0.96" (see `number`).
    static func value(_ v: Double) -> String {
        let s = number(v)
        return v > 0 && s != "0.0" ? "+" + s : s
    }

    /// A Waterline number — a value, an estimate, a total of standard drinks — as every
    /// Waterline screen shows it: with one decimal, or two when it has two ("1.0", "0.96",
    /// "2.7"); further decimals (a hand edit) are cut, never rounded, so that what is shown
    /// never reaches a mark the value has not reached: 1.996 under a threshold of 2 shows
    /// "1.99", as the rules judge it (below the warning).
    static func number(_ v: Double) -> String {
        let hundredths = (abs(v) * 100 + 1e-6).rounded(.down)
        let text = hundredths.truncatingRemainder(dividingBy: 10) == 0 ? NumberText.fixed(hundredths / 100, decimals: 1) : NumberText.fixed(hundredths / 100, decimals: 2)
        return v < 0 && hundredths > 0 ? "-" + text : text
    }

    /// An amount without needless decimals: "8", "8.5", "250".
    static func amount(_ v: Double) -> String { CanonicalJSON.formatNumber((v * 10).rounded() / 10) }

    /// "1 drink", "2 drinks".
    static func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    /// "1.0 standard drink", "2.5 standard drinks".
    static func standardDrinks(_ v: Double) -> String { "\(number(v)) standard drink\(v == 1 ? "" : "s")" }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Sat 21 Nov 2026", as recorded where the session started.
    static func date(_ t: Timestamp) -> String {
        let d = t.local.date
        return "\(weekdays[d.isoWeekday - 1]) \(d.day) \(months[d.month - 1]) \(d.year)"
    }

    /// How the times of one session are shown: as the reader's clock shows them ("23:40") —
    /// with their UTC offset when the session spans two offsets (a night when the clocks
    /// change, or travel: then each time is shown as it was recorded, "02:30 +02:00"), and
    /// with their date when it spans 24 hours or more ("Sun 22 Nov 10:11"), so that no time
    /// can be read as another.
    struct Times {
        let clock: CommandClock
        let withOffset: Bool
        let withDate: Bool

        init(_ instants: [Timestamp], _ clock: CommandClock) {
            self.clock = clock
            let recorded = Set(instants.map(\.utcOffsetSeconds))
            let here = Set(instants.map { clock.timestamp($0.date).utcOffsetSeconds })
            withOffset = recorded.count > 1 || here.count > 1
            let ms = instants.map(\.epochMilliseconds)
            withDate = (ms.max() ?? 0) - (ms.min() ?? 0) >= 24 * 3_600_000
        }

        /// The times of `session` (its start, entries and end, or now while it runs).
        init(_ session: Session, _ clock: CommandClock, now: Timestamp? = nil) {
            self.init([session.startTime] + session.entries.map(\.timestamp) + [session.endTime ?? now].compactMap { $0 }, clock)
        }

        func show(_ t: Timestamp) -> String {
            let l = withOffset ? t : clock.timestamp(t.date)
            var text = NumberText.padded(l.local.hour) + ":" + NumberText.padded(l.local.minute)
            if withDate {
                let d = l.local.date
                text = "\(weekdays[d.isoWeekday - 1]) \(d.day) \(months[d.month - 1]) " + text
            }
            if withOffset {
                let o = abs(l.utcOffsetSeconds) / 60
                text += (l.utcOffsetSeconds < 0 ? " -" : " +") + NumberText.padded(o / 60) + ":" + NumberText.padded(o % 60)
            }
            return text
        }
    }

    /// "2 h 25 min", "45 min".
    static func duration(minutes: Int) -> String {
        minutes >= 60 ? "\(minutes / 60) h \(NumberText.padded(minutes % 60)) min" : "\(minutes) min"
    }

    /// "Hazy IPA · 1.9 std" for a drink logged from a preset, "Beer · 500 ml · 1.4 std" at
    /// another size than the preset's own (as `presets`, by id, have it); else "beer · 12 oz ·
    /// 5% · 1.0 std" (sizes in `units`); "water · 8 oz". `presets` also names the presets of
    /// entries that did not record the name. Without the estimate: "beer · 12 oz".
    static func describe(_ e: LogEntry, units: VolumeUnit, presets: [String: DrinkPreset] = [:], estimate: Bool = true) -> String {
        switch e.type {
        case .alcohol:
            let m = e.alcoholMeta
            let preset = m?.presetId.flatMap { presets[$0] }
            var parts: [String]
            if let name = m?.presetName ?? preset?.name {
                parts = [name]
                if let s = m?.sizeOz, let preset, size(s, units: units) != size(preset.sizeOz, units: units) { parts.append(units.describe(ounces: s)) }
            } else {
                parts = [m?.drinkType?.rawValue ?? "drink"]
                if let s = m?.sizeOz { parts.append(units.describe(ounces: s)) }
                if let a = m?.abv { parts.append("\(amount(a))%") }
            }
            if estimate { parts.append("\(number(m?.standardDrinkEstimate ?? 0)) std") }
            return parts.joined(separator: " · ")
        case .water:
            guard let w = e.waterMeta else { return "water" }
            return "water · " + units.describe(w.amount, from: w.units)
        }
    }

    /// A preset's size in `units`: "12 oz", "355 ml", "—".
    static func size(_ oz: Double?, units: VolumeUnit) -> String { oz.map { units.describe(ounces: $0) } ?? "—" }

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

    /// A horizontal Waterline gauge: the centre band, the warning threshold, and the value,
    /// with a scale naming the threshold whatever it is.
    ///
    ///     -5 ·····················▕┃▏━━━━━━━━●······┊·········· +5
    ///                            0          warning 2
    static func gauge(_ state: WaterlineState, threshold: Int) -> [String] {
        let v = state.waterlineValue
        let range = Int(min(20, max(5, Double(threshold + 1), abs(v).rounded(.up))))
        let half = 20, width = 2 * half + 1
        func column(_ x: Double) -> Int { half + Int((x / Double(range) * Double(half)).rounded()) }
        let t = column(Double(threshold))
        // The value's column, cut toward the centre like the number shown, and on the side of
        // the warning mark the warning is on.
        var at = min(max(half + Int((v / Double(range) * Double(half) + (v < 0 ? -1e-6 : 1e-6)).rounded(.towardZero)), 0), 2 * half)
        if t <= 2 * half { at = state.isWarning ? max(at, t) : min(at, t - 1) }
        var cells = Array(repeating: "·", count: width)
        if at != half {
            for i in min(at, half)...max(at, half) where i != half { cells[i] = "━" }
        }
        if t <= 2 * half, t != at { cells[t] = "┊" }
        cells[half - 1] = cells[half - 1] == "━" ? "━" : "▕"
        cells[half + 1] = cells[half + 1] == "━" ? "━" : "▏"
        cells[half] = "┃"
        cells[at] = abs(v) > Double(range) ? (v > 0 ? "▶" : "◀") : "●"
        var line = cells.joined()
        if state.isWarning { line = Style.red(line) }
        var scale = Array(repeating: " ", count: width)
        scale[half] = "0"
        // The label starts at the threshold's mark, or ends there when it would not fit; a
        // threshold beyond the scale is named at its end.
        let label = Array(t <= 2 * half ? "warning \(threshold)" : "warning \(threshold) →")
        let start = t <= 2 * half ? min(max(t, half + 2), width - label.count) : width - label.count
        for (i, c) in label.enumerated() { scale[start + i] = String(c) }
        // Without trailing spaces (no regular expression: compiling one costs a command a
        // tenth of its time).
        var scaleLine = "      \(scale.joined())"
        while scaleLine.last == " " { scaleLine.removeLast() }
        return ["  \("-\(range)".padding(toLength: 4, withPad: " ", startingAt: 0))\(line) +\(range)", scaleLine]
    }

    // MARK: - Words for LedgerKit's inputs and steps (see `Words`)

    /// The flag (or argument) that gives a Waterline input.
    static func flag(_ input: LedgerError.Input.Waterline) -> String {
        switch input {
        case .size: "--size"
        case .abv: "--abv"
        case .standardDrinks: "--std"
        case .drinkType: "--type"
        case .amount: "--amount"
        case .time: "--time"
        case .name: "NAME"
        case .newName: "--name"
        }
    }

    /// The command that takes a Waterline step, in its sentence's place.
    static func command(_ step: LedgerError.NextStep.Waterline) -> String {
        switch step {
        case .startSession: "start one with `ledger waterline start`"
        case .endSession: "end it first with `ledger waterline end`"
        case .listEntries: "`ledger waterline entries`"
        case .listPresets: "`ledger waterline presets` lists them"
        case .editPreset(let id): "change it with `ledger waterline presets edit \(id)`"
        case .mergeActiveSessions: "the next `ledger waterline` command merges them (docs/waterline.md says how)"
        }
    }

    // MARK: - Parsing (values as typed, checked against the settings by the store)

    /// A volume: `250`, `250ml`, `8oz`, `8.5 oz`.
    static func parseVolume(_ text: String, input: LedgerError.Input.Waterline) throws -> Given<Volume> {
        let option = flag(input)
        guard let v = Volume(parsing: text) else {
            throw LedgerError.usage("\(option) must be a positive amount like 8, 8oz, 250ml, 25cl or 0.5l (found \"\(text)\")")
        }
        return Given(v, input: .waterline(input), text: text)
    }

    /// A drink size: a volume, or a serving's name (`pint`, `glass`, `double`, …).
    static func parseSize(_ text: String, input: LedgerError.Input.Waterline = .size) throws -> Given<DrinkSize> {
        let option = flag(input)
        guard let s = DrinkSize(parsing: text) else {
            let servings = DrinkSize.servings.map(\.name).joined(separator: ", ")
            throw LedgerError.usage("\(option) must be a positive size like 12, 12oz, 330ml, 33cl or 0.5l, or a serving (\(servings)) (found \"\(text)\")")
        }
        return Given(s, input: .waterline(input), text: text)
    }

    /// A standard-drink count (`--std`): more than 0, at most 20.
    static func parseStandardDrinks(_ text: String) throws -> Double {
        let option = flag(.standardDrinks)
        guard let v = NumberText.decimal(text), v > 0, v <= AlcoholMeta.maximumEstimate else {
            throw LedgerError.usage("\(option) must be a number of standard drinks more than 0 and at most \(CanonicalJSON.formatNumber(AlcoholMeta.maximumEstimate)) (found \"\(text)\")")
        }
        return v
    }

    /// A percentage between 0 and 100 (`5`, `5%`).
    static func parseABV(_ text: String) throws -> Given<Double> {
        let t = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let v = NumberText.decimal(t), v >= 0, v <= 100 else {
            throw LedgerError.usage("\(flag(.abv)) must be a percentage between 0 and 100 (found \"\(text)\")")
        }
        return Given(v, input: .waterline(.abv), text: text)
    }

    /// A drink type.
    static func parseType(_ text: String) throws -> Given<DrinkType> {
        if let t = DrinkType(rawValue: text.lowercased()) { return Given(t, input: .waterline(.drinkType), text: text) }
        throw LedgerError.usage("\(flag(.drinkType)) must be one of \(DrinkType.allCases.map(\.rawValue).joined(separator: ", ")) (found \"\(text)\")"
            + Suggestion.didYouMean(text, among: DrinkType.allCases.map(\.rawValue)))
    }
}

/// The `--json` shapes of the Waterline commands (SPEC §7 keys, and more).
enum WaterlineJSON {
    /// `status --json`: the WaterlineState keys (judged by the current settings),
    /// `sessionId` (null without a session) and more.
    static func status(_ current: WaterlineStore.Current, clock: CommandClock) -> JSONValue {
        let session = current.session, settings = current.settings, now = clock.now
        var o = current.state.json.objectValue!
        o["sessionId"] = session.map { .string($0.id) } ?? .null
        o["startTime"] = session.map { $0.startTime.json } ?? .null
        o["isActive"] = .bool(session != nil)
        o["waterEveryNDrinks"] = .number(Double(settings.waterEveryNDrinks))
        o["warningThreshold"] = .number(Double(settings.warningThreshold))
        o["waterDueInDrinks"] = current.drinksUntilWaterDue.map { .number(Double($0)) } ?? .null
        o["nextReminder"] = session.flatMap { WaterlineEngine.nextTimeReminder(for: $0, settings: settings, now: now, timeZone: clock.timeZone) }.map(\.json) ?? .null
        o["durationMinutes"] = session.map { .number(Double($0.summary(now: now).durationMinutes)) } ?? .null
        o["abandoned"] = .bool(session.map { WaterlineEngine.isAbandoned($0, now: now, afterHours: settings.abandonedAfterHours) } ?? false)
        o["hoursRunning"] = session.map { .number(Double(WaterlineEngine.hoursRunning($0, now: now))) } ?? .null
        o["keptGoingAt"] = session?.keptGoingAt?.json ?? .null
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

    /// What is due now (`reminders --json`'s `due`): items with key, since and notification.
    static func due(_ due: WaterlineDue) -> JSONValue {
        .object([
            "items": .array(due.items.map { item in
                var o = item.notification.json.objectValue!
                o["key"] = .string(item.key)
                o["since"] = item.since.json
                return .object(o)
            }),
            "nextChange": due.nextChange?.json ?? .null,
        ])
    }
}
