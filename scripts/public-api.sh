#!/bin/sh
# The public line, counted: how many public declarations each library module has (symbols
# with a source location in the module's public symbol graph, from `swift symbolgraph-extract
# -minimum-access-level public`; "with synthesized" adds the members the compiler makes, such
# as Equatable's `!=`). Run from the package root after `swift build`. docs/DESIGN.md keeps
# the figures.
set -eu
bin=$(swift build --show-bin-path)
includes="-I $bin/Modules -I Sources/CGit2 -I Sources/CSpawn -I Sources/CDBus -I Sources/CLinux $(pkg-config --cflags-only-I dbus-1 2>/dev/null || true)"
for module in LedgerKit LedgerSync LedgerRemind; do
    out=$(mktemp -d)
    # shellcheck disable=SC2086
    if swift symbolgraph-extract -module-name "$module" -target "$(uname -m)-unknown-linux-gnu" $includes \
        -minimum-access-level public -output-dir "$out" >/dev/null 2>&1; then
        python3 - "$module" "$out" <<'PY'
import glob, json, sys
symbols = [s for f in glob.glob(sys.argv[2] + "/*.symbols.json") for s in json.load(open(f))["symbols"]]
print(f"{sys.argv[1]}: {sum('location' in s for s in symbols)} declared, {len(symbols)} with synthesized")
PY
    else
        echo "$module: swift symbolgraph-extract failed (build first: swift build)"
    fi
    rm -rf "$out"
done
