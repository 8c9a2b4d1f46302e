# Waterline: tonight's session from sample-data/, in progress at 23:30 (sourced by scripts/demo.sh).
printf '\n# Waterline — a night out, paced with water\n'
step ledger waterline status
step ledger waterline water
step ledger waterline drink --preset "glass of wine"
printf '\n# a size in your units or with its own (330ml), or a serving: pint, glass, double, …\n'
step ledger waterline drink --type beer --size pint
printf '\n# that pint was a mistake: `last` is the newest entry\n'
step ledger waterline delete last
step ledger waterline reminders
step ledger waterline entries
printf '\n# settings apply from now on: the night so far keeps the N it was paced with\n'
step ledger waterline settings set waterEveryNDrinks 2
step ledger waterline summary
step ledger waterline sessions
step ledger waterline status --json
step ledger waterline presets add "Kölsch" --type beer --size 200ml
step ledger waterline presets
step ledger waterline end --yes
