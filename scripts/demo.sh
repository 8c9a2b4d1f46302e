#!/usr/bin/env bash
# A tour of ledger on a copy of sample-data/ in a temporary ledger (make demo).
# Usage: scripts/demo.sh PATH/TO/ledger
set -euo pipefail

bin=${1:?usage: demo.sh PATH/TO/ledger}
here=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$(cd "$(dirname "$bin")" && pwd):$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LEDGER_REPO="$work/ledger" HOME="$work/home" NO_COLOR=1
# The sample data describes the evening of 2026-11-21 in Paris; the clock is set to it.
export LEDGER_NOW="2026-11-21T23:30:00+01:00" TZ="Europe/Paris"
mkdir -p "$HOME"

# Commands in bold on a terminal (never with NO_COLOR).
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold="" plain=""; fi
step() { printf '\n%s$ %s%s\n' "$bold" "$*" "$plain"; "$@"; }
# A step whose non-zero exit is part of the story (check finding problems).
step_may_fail() { printf '\n%s$ %s%s\n' "$bold" "$*" "$plain"; "$@" || printf '(exit status %d)\n' "$?"; }

step ledger init "$LEDGER_REPO"
printf '\n# copying sample-data/ into the new ledger\n'
cp -R "$here/sample-data/." "$LEDGER_REPO/"
step ledger status
step ledger check

for tour in "$here"/scripts/demo.d/*.sh; do
    [ "$(basename "$tour")" = sync.sh ] || . "$tour"
done

printf '\n# a hand edit: %s loses its formatting and gets a wrong type\n' ledger.json
printf '{"format":"one","createdAt":"2026-11-01T09:00:00+01:00","updatedAt":"2026-11-01T09:00:00+01:00","colour":"blue"}' > "$LEDGER_REPO/ledger.json"
step_may_fail ledger check
printf '\n# fixing the type by hand, then letting check --fix restore the canonical format\n'
printf '{"format":1,"createdAt":"2026-11-01T09:00:00+01:00","updatedAt":"2026-11-01T09:00:00+01:00","colour":"blue"}' > "$LEDGER_REPO/ledger.json"
step ledger check --fix
step ledger check
# Last, the main job: two devices syncing.
. "$here/scripts/demo.d/sync.sh"
printf '\nDemo finished; the temporary ledger is removed.\n'
