# BrewGuide: recipes, the confirm-inputs screen with scaling, logging a brew, the logs.
# (`ledger brew start`, the interactive terminal brew, needs a terminal of its own.)
printf '\n# BrewGuide — the built-in V60 starter and two custom recipes from sample-data\n'
step ledger brew recipes
step ledger brew recipe show v60-starter
printf '\n# scaling: a 20 g dose gives 333 g of water, a bloom of 60 g and two pours of 137 + 136 g\n'
step ledger brew plan v60-starter --dose 20
printf '\n# out of the recommended ranges: warned, never clamped\n'
step ledger brew plan --yield 800 --temp 98
printf '\n# planned inputs are remembered until --reset; save logs the 20 g brew planned here\n'
step ledger brew plan --reset --dose 20
step ledger brew save --rating 4 --tag too-sour --note "Kenya AA, a bit bright"
step ledger brew logs --limit 5
printf '\n# a custom recipe: duplicate the starter, then edit it (an invalid edit is refused)\n'
step ledger brew recipe duplicate v60-starter --name "Demo V60"
step_may_fail ledger brew recipe edit "Demo V60" --yield 320
step ledger brew recipe edit "Demo V60" --dose 19 --yield 320 --scale-steps --temp 92
step ledger brew plan "Demo V60" --dose 16
printf "\n# the drawdown's target finish follows each recipe's timers: Light roast blooms 50 s, so 3:05–3:35\n"
step ledger brew recipe show "Light roast"
printf '\n# deleting a recipe or a log asks first (--yes for scripts); the deletion syncs like any change\n'
step ledger brew recipe delete "Demo V60" --yes
