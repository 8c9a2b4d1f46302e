import LedgerKit

/// What `ledger remind` says: one line per event, on stderr for the desktop process (the
/// journal of its service), on stdout in the terminal.
enum RemindFormat {
    /// A line on stderr, written at once (the process runs for days).
    static func log(_ line: String) {
        Console.error("ledger remind: " + line)
        Console.flush()
    }

    /// A line in the terminal, stamped with the time it happened, written at once; `bell`
    /// rings first.
    static func say(_ line: String, at now: Timestamp, bell: Bool = false) {
        if bell { CLIContext.current.stdout.write("\u{07}") }
        let local = now.local
        Console.print(HydrateFormat.pad2(local.hour) + ":" + HydrateFormat.pad2(local.minute) + "  " + line)
        Console.flush()
    }

    /// What pressing a button (or a key) did.
    static func outcome(_ outcome: ReminderStore.Outcome, at now: Timestamp) -> String {
        switch outcome {
        case .drank(.confirmed(let slot, let day)):
            "Confirmed \(HydrateFormat.reminder(slot, day, today: now.local.date)). " + HydrateFormat.progressSentence(day.progress(at: now)) + "."
        case .drank(.alreadyConfirmed(let slot, let at, let day)):
            "\(HydrateCommand.Drank.capitalized(HydrateFormat.reminder(slot, day, today: now.local.date))) was already confirmed at \(HydrateFormat.clock(at, day.plan)); it counts once."
        case .drank(.tooLate(let slot, let day, _)):
            "\(HydrateCommand.Drank.capitalized(HydrateFormat.reminder(slot, day, today: now.local.date))) can no longer be confirmed: its day is over; nothing was recorded."
        case .drank(.beforeFirstReminder(let day)), .drank(.windowClosed(let day)):
            "Noted a glass outside the reminders; it counts for no reminder. " + HydrateFormat.progressSentence(day.progress(at: now)) + "."
        case .drank(.notYet), .drank(.noSuchReminder):
            "No reminder to confirm now; nothing was recorded."
        case .loggedWater(let logged):
            "Logged \(WaterlineText.describe(logged.entry, units: logged.settings.units))."
        case .dismissed:
            "Dismissed."
        }
    }
}
