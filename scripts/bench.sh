#!/usr/bin/env bash
# make bench: see scripts/bench.py.  Usage: bench.sh BIN_DIR SCALE
set -euo pipefail
exec python3 "$(dirname "$0")/bench.py" "$@"
