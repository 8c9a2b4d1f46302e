# DotLife Moments: a tiny gratitude journal drawn as dots (sourced by scripts/demo.sh).
printf '\n# DotLife Moments — capture in one command, see time as soft dots\n'
step ledger moments today
step ledger moments week
step ledger moments month
step ledger moments year --months
step ledger moments show 2026-11-20
step ledger moments add "soup with friends after the film"
step ledger moments add --dot --moment today
step ledger moments add --link https://www.gutenberg.org/ebooks/1342 --moment week
printf '\n# a photo: copied into the ledger under the SHA-256 of its contents (the same photo twice is one file)\n'
photo=$(ls "$LEDGER_REPO"/moments/photos/*.png | head -n 1)
cp "$photo" "$work/window.png"
step ledger moments add --photo "$work/window.png"
step ledger moments today
printf '\n# an hour without experiences offers the command that adds one to it\n'
step ledger moments show 2026-11-17T08
printf '\n# a moment taken back: deleted by the path add printed (or its id: show --ids lists them)\n'
taken=$(ledger moments add "a note to take back" --json | sed -n 's/^  "path": "\(.*\)",$/\1/p')
step ledger moments show 2026-11-21T23 --ids
step ledger moments delete "$taken"
step ledger moments template
step ledger moments template set "Grateful for [experience], [moment]."
step ledger moments add "a letter from an old friend"
step_may_fail ledger moments template set "Grateful for everything"
printf '\n# a template broken by hand never stops a capture: it uses the default template and names the fix; reset is that fix\n'
sed -i 's/"sentenceTemplate": ".*"/"sentenceTemplate": "Thanks"/' "$LEDGER_REPO/moments/settings.json"
step_may_fail ledger moments add "tea"
step ledger moments template reset
step ledger moments show 2026-11-21T22 --json
