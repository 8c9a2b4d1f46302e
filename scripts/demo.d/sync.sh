# Sync — what ledger is for: two devices, one remote, changes on both while offline, merged by
# data-aware rules (sourced last by scripts/demo.sh; no network: the remote is a folder).
printf '\n# Sync — the laptop (the ledger so far) and a desktop share it through a bare git remote\n'
laptop="$LEDGER_REPO" desktop="$work/desktop" remote="$work/remote.git"
git init -q --bare -b main "$remote"
# Who plain git commits as, in this temporary home.
export GIT_AUTHOR_NAME="Demo" GIT_AUTHOR_EMAIL="demo@example.org" GIT_COMMITTER_NAME="Demo" GIT_COMMITTER_EMAIL="demo@example.org"
LEDGER_NOW="2026-11-21T23:35:00+01:00" step ledger waterline start
step git -C "$laptop" remote add origin "$remote"
# A step whose long list is cut to its last line.
brief_step() { printf '\n%s$ %s%s   (its list left out)\n' "$bold" "$*" "$plain"; "$@" | tail -n 1; }
printf '\n# the first sync publishes the ledger: every document of the tour so far\n'
brief_step ledger sync
step ledger clone "$remote" "$desktop"
on_desktop() { LEDGER_REPO="$desktop" step "$@"; }
recipe=$(ledger brew recipes --json | python3 -c 'import json,sys; print(next(r["id"] for r in json.load(sys.stdin) if not r["starter"]))')

printf '\n# offline on both: tonight'"'"'s session and recipe %s change on each device\n' "$recipe"
LEDGER_NOW="2026-11-21T23:40:00+01:00" step ledger waterline water
LEDGER_NOW="2026-11-21T23:41:00+01:00" on_desktop ledger waterline drink --preset beer
LEDGER_NOW="2026-11-21T23:42:00+01:00" step ledger brew recipe edit "$recipe" --dose 18
LEDGER_NOW="2026-11-21T23:43:00+01:00" on_desktop ledger brew recipe edit "$recipe" --dose 22

printf '\n# back online: the desktop syncs first, the laptop merges both sides, the desktop takes the result\n'
on_desktop ledger sync
step ledger sync
on_desktop ledger sync
printf '\n# Waterline entries from both devices, unioned, and the Waterline recomputed from them\n'
export LEDGER_NOW="2026-11-21T23:45:00+01:00"
step ledger waterline entries
step ledger waterline status
printf '\n# the recipe edited on both survives twice: the laptop'"'"'s keeps its id, the other is a copy\n'
step ledger brew recipes
printf '\n# both devices hold the same files\n'
step git -C "$laptop" rev-parse HEAD^{tree}
on_desktop git -C "$desktop" rev-parse HEAD^{tree}

printf '\n# plain git works too: .gitattributes sends *.json to the ledger merge driver\n'
LEDGER_NOW="2026-11-21T23:50:00+01:00" step ledger waterline water
step git -C "$laptop" commit -qam "a glass of water, committed with git"
LEDGER_NOW="2026-11-21T23:51:00+01:00" on_desktop ledger waterline drink --preset "glass of wine"
on_desktop ledger sync
step git -C "$laptop" -c pull.rebase=false pull --no-edit -q origin main
step ledger check
step ledger waterline status
step ledger log --limit 4
step ledger status
printf '\n# the next sync shares the merge git made; both devices end with the same files again\n'
brief_step ledger sync
on_desktop ledger sync
step git -C "$laptop" rev-parse HEAD^{tree}
on_desktop git -C "$desktop" rev-parse HEAD^{tree}
