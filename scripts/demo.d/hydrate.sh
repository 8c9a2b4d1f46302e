# Water Reminder: a tour at 23:30 on 2026-11-21. The sample schedule reminds every 2 hours
# from 08:00 to midnight; the 22:00 reminder has not been confirmed yet.
printf '\n# Water Reminder: today so far, and the day as a timeline\n'
step ledger hydrate status
step ledger hydrate plan
printf '\n# a job run every minute (cron, a systemd timer) asks whether to notify: at 23:30 a follow-up is due\n'
step ledger hydrate due
printf '\n# the JSON names the slot the notification is about, which "I Drank" on it confirms\n'
step ledger hydrate due --json
printf '\n# the 12:00 notification, answered late in the evening, still confirms the 12:00 reminder\n'
step ledger hydrate drank --slot 12:00
printf '\n# "I Drank" confirms the 22:00 reminder; a second one in the same slot does not count twice\n'
step ledger hydrate drank
step ledger hydrate drank
printf '\n# nothing due now (exit status 1, like grep) ...\n'
step_may_fail ledger hydrate due
printf '\n# ... and a schedule broken by a hand edit is told apart: exit status 2, with the reason\n'
cp "$LEDGER_REPO/hydrate/schedule.json" "$work/schedule.json"
sed -i 's/"followUpIntervalMinutes": 30/"followUpIntervalMinutes": 300/' "$LEDGER_REPO/hydrate/schedule.json"
step_may_fail ledger hydrate due
cp "$work/schedule.json" "$LEDGER_REPO/hydrate/schedule.json"
printf '\n# a day of the first week, planned with the schedule of that time (every 90 minutes, 09:00 to 21:00)\n'
step ledger hydrate plan --date 2026-11-12
printf '\n# the schedule as an iCalendar file, for any calendar application to do the notifying\n'
step ledger hydrate export --ics "$work/water-reminder.ics"
