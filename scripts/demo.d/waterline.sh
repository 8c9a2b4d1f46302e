# Waterline: tonight's session from sample-data/, in progress at 23:30 (sourced by scripts/demo.sh).
printf '\n# Waterline — a night out, paced with water\n'
step ledger waterline status
step ledger waterline water
step ledger waterline drink --preset "glass of wine"
step ledger waterline reminders
step ledger waterline entries
step ledger waterline sessions
step ledger waterline status --json
step ledger waterline presets
step ledger waterline end --yes
