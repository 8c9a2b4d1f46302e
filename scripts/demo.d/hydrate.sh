# Water Reminder: a tour at 23:30 on 2026-11-21. The sample schedule reminds every 2 hours
# from 08:00 to midnight; the 22:00 reminder has not been confirmed yet.
printf '\n# Water Reminder: today so far, and the day as a timeline\n'
step ledger hydrate status
step ledger hydrate plan
printf '\n# a job run every minute (cron, a systemd timer) asks whether to notify: at 23:30 a follow-up is due\n'
step ledger hydrate due
printf '\n# "I Drank" confirms the 22:00 reminder; a second one in the same slot does not count twice\n'
step ledger hydrate drank
step ledger hydrate drank
step_may_fail ledger hydrate due
step ledger hydrate due --json
printf '\n# a day of the first week, planned with the schedule of that time (every 90 minutes, 09:00 to 21:00)\n'
step ledger hydrate plan --date 2026-11-12
printf '\n# the schedule as an iCalendar file, for any calendar application to do the notifying\n'
step ledger hydrate export --ics "$work/water-reminder.ics"
