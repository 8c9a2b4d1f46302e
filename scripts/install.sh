#!/bin/sh
# Installs (or uninstalls) ledger under a prefix: the binary, a man page per command, and the
# bash, zsh and fish completions in the places those shells look.
#
#   scripts/install.sh BIN_DIR PREFIX     install BIN_DIR/ledger under PREFIX
#   scripts/install.sh --uninstall PREFIX remove every file an install put there
#
# What was installed is listed in PREFIX/share/ledger/installed-files, which uninstall reads,
# so it removes exactly that (and never another program's `ledger-*` page).
set -eu

manifest_of() { echo "$1/share/ledger/installed-files"; }

if [ "${1:-}" = "--uninstall" ]; then
    prefix=$2
    manifest=$(manifest_of "$prefix")
    if [ ! -f "$manifest" ]; then
        # An install from before the list existed: the binary alone.
        rm -f "$prefix/bin/ledger"
        exit 0
    fi
    while IFS= read -r file; do rm -f "$prefix/$file"; done < "$manifest"
    rm -f "$manifest"
    rmdir "$prefix/share/ledger" 2>/dev/null || true
    echo "removed ledger from $prefix"
    exit 0
fi

bin=$1
prefix=$2
here=$(cd "$(dirname "$0")" && pwd)
man1="share/man/man1"
bash_dir="share/bash-completion/completions"
zsh_dir="share/zsh/site-functions"
fish_dir="share/fish/vendor_completions.d"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Everything is generated first, so a failure installs nothing.
python3 "$here/manpages.py" "$bin/ledger" "$work/man1" > "$work/pages"
"$bin/ledger" --generate-completion-script bash > "$work/ledger.bash"
"$bin/ledger" --generate-completion-script zsh > "$work/_ledger"
# fish: argument-parser asks `commandline -tC` for the cursor's place in the word, which fish 3
# leaves empty (or refuses) when completing a line given to `complete -C` (as `sudo ledger …`,
# `env … ledger …` and completion pickers do); the ledger then gets one argument too few and
# completes nothing. There the cursor is at the end of the word: its length.
"$bin/ledger" --generate-completion-script fish |
    sed 's/(__ledger_tokens -tC)/(__ledger_tokens -tC 2>\/dev\/null; or string length -- "$(__ledger_tokens -t)")/' > "$work/ledger.fish"
test -s "$work/ledger.fish"

install -d "$prefix/bin" "$prefix/$man1" "$prefix/$bash_dir" "$prefix/$zsh_dir" "$prefix/$fish_dir" "$prefix/share/ledger"
install -m 0755 "$bin/ledger" "$prefix/bin/ledger"
echo "bin/ledger" > "$work/installed"
for page in "$work"/man1/*.1; do
    install -m 0644 "$page" "$prefix/$man1/"
    echo "$man1/$(basename "$page")" >> "$work/installed"
done
install -m 0644 "$work/ledger.bash" "$prefix/$bash_dir/ledger"
install -m 0644 "$work/_ledger" "$prefix/$zsh_dir/_ledger"
install -m 0644 "$work/ledger.fish" "$prefix/$fish_dir/ledger.fish"
printf '%s\n' "$bash_dir/ledger" "$zsh_dir/_ledger" "$fish_dir/ledger.fish" >> "$work/installed"
install -m 0644 "$work/installed" "$(manifest_of "$prefix")"
echo "installed ledger, $(wc -l < "$work/pages") man pages and bash, zsh and fish completions under $prefix"
