import ArgumentParser
import LedgerKit

extension HydrateCommand {
    /// `ledger hydrate status [--date D] [--json]`
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Today's progress: \"3 out of 8 reminders completed\", with a bar.")

        @Option(help: ArgumentHelp("The day to show (default: the current one; a window past midnight belongs to the day it starts).", valueName: "YYYY-MM-DD"), transform: DateValue.parse)
        var date: DateValue?

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws { try line.run() }
    }

    /// `ledger hydrate plan [--date D] [--json]`
    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "The day's timeline: each reminder done, due, not confirmed or upcoming, with its follow-ups.")

        @Option(help: ArgumentHelp("The day to show (default: the current one).", valueName: "YYYY-MM-DD"), transform: DateValue.parse)
        var date: DateValue?

        @OptionGroup var output: JSONOption

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let env = try global.environment()
            let view = try HydrateCommand.view(date, env)
            let day = view.day
            let progress = day.progress(at: env.now)
            if output.json {
                var o = HydrateFormat.progressJSON(view, progress)
                o["slots"] = .array(progress.slots.map(Self.slotJSON))
                Output.json(.object(o))
                return
            }
            let plan = day.plan
            Console.print(Style.bold(HydrateFormat.title(day.date)) + Style.dim(" · reminders " + plan.schedule.summary))
            if view.awaitsSetup { Console.print(Style.dim(HydrateFormat.setupHint)) }
            Console.print()
            // Glasses outside the reminders go in time order among them.
            var glasses = progress.outside[...]
            func glassesBefore(_ t: Timestamp?) {
                while let g = glasses.first, t.map({ g.epochMilliseconds < $0.epochMilliseconds }) ?? true {
                    let detail = g < plan.start ? "before the first reminder" : "after the window closed"
                    Console.print("  \(HydrateFormat.clock(g, plan))  \(Style.green("✓")) \("glass".padding(toLength: 15, withPad: " ", startingAt: 0))\(detail); counts for no reminder")
                    glasses = glasses.dropFirst()
                }
            }
            for s in progress.slots {
                glassesBefore(s.slot.time)
                let time = HydrateFormat.clock(s.slot.time, plan)
                let times = { (list: [Timestamp]) in list.map { HydrateFormat.clock($0, plan) }.joined(separator: " ") }
                let (mark, label, detail): (String, String, String)
                switch s.state {
                case .done:
                    mark = Style.green("✓")
                    label = "done"
                    let after = s.followUps.isEmpty ? "" : ", after " + (s.followUps.count == 1 ? "a follow-up" : "\(s.followUps.count) follow-ups")
                    detail = "confirmed at " + HydrateFormat.clock(s.confirmedAt!, plan) + after
                case .due:
                    mark = Style.bold("▸")
                    label = "due"
                    let sent = s.followUps.filter { $0.epochMilliseconds <= env.now.epochMilliseconds }
                    let planned = s.followUps.filter { $0.epochMilliseconds > env.now.epochMilliseconds }
                    var parts: [String] = []
                    if !sent.isEmpty { parts.append("follow-ups sent " + times(sent)) }
                    if !planned.isEmpty { parts.append("next follow-ups " + times(planned)) }
                    detail = parts.isEmpty ? "`ledger hydrate drank` confirms it" : parts.joined(separator: "; ")
                case .unconfirmed:
                    mark = Style.dim("·")
                    label = "not confirmed"
                    detail = s.followUps.isEmpty ? "" : "follow-ups " + times(s.followUps)
                case .upcoming:
                    mark = " "
                    label = "upcoming"
                    detail = ""
                }
                var line = "  \(time)  \(mark) \(label.padding(toLength: 15, withPad: " ", startingAt: 0))\(detail)"
                while line.hasSuffix(" ") { line.removeLast() }
                Console.print(s.state == .unconfirmed ? Style.dim(line) : line)
            }
            glassesBefore(nil)
            Console.print()
            Console.print(HydrateFormat.progressSentence(progress) + "  " + HydrateFormat.bar(progress))
        }

        static func slotJSON(_ s: HydrationProgress.SlotStatus) -> JSONValue {
            .object([
                "time": .string(s.slot.time.iso8601),
                "end": .string(s.slot.end.iso8601),
                "state": .string(s.state.rawValue),
                "confirmedAt": s.confirmedAt.map { .string($0.iso8601) } ?? .null,
                "followUps": .array(s.followUps.map { .string($0.iso8601) }),
            ])
        }
    }
}

extension HydrateCommand.Status: QuickCommand {
    static let path = ["hydrate", "status"]
    static let valueOptions = ["date"]

    var line: Line { Line(date: date, json: output.json, global: global.choice) }

    static func read(_ words: QuickLine.Words) throws -> Line {
        Line(date: try words.value("date"), json: words.flag("json"), global: LedgerChoice.read(words))
    }

    struct Line: QuickRun {
        var date: DateValue?
        var json: Bool
        var global: LedgerChoice

        func run() throws {
            let env = try global.environment()
            let view = try HydrateCommand.view(date, env)
            let day = view.day
            let progress = day.progress(at: env.now)
            if json {
                Output.json(.object(HydrateFormat.progressJSON(view, progress)))
                return
            }
            Console.print(Style.bold(HydrateFormat.progressSentence(progress)) + Style.dim(" · " + HydrateFormat.title(day.date)))
            Console.print(HydrateFormat.bar(progress))
            let plan = day.plan
            if let outside = HydrateFormat.outside(progress, plan) { Console.print("Also " + outside + ".") }
            if let open = progress.current, open.state == .due {
                Console.print("The \(HydrateFormat.clock(open.slot.time, plan)) reminder is open: `ledger hydrate drank` once you have had a glass.")
            } else if let next = progress.next {
                Console.print("\(progress.upcoming == progress.total ? "First" : "Next") reminder at \(HydrateFormat.clock(next.time, plan)).")
            } else {
                Console.print("The day's reminders are over.")
            }
            if view.awaitsSetup { Console.print(Style.dim(HydrateFormat.setupHint)) }
        }
    }
}
