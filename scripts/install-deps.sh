#!/usr/bin/env bash
# Installs the system packages ledger needs, with apt-get, only when something is missing.
#   install-deps.sh build   libgit2 and libdbus headers, pkg-config, git, python3 (man pages at install; the
#                           release binary: scripts/lazy-libraries.py)
#   install-deps.sh test    the above, plus what the tests' real servers and terminals use
set -euo pipefail

what=${1:-build}
need=()

have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

for p in libgit2-dev libdbus-1-dev pkg-config git python3; do have_pkg "$p" || need+=("$p"); done
if [ "$what" = test ]; then
    # sshd and ssh-agent for ssh remotes, lighttpd for smart HTTP(S) (git http-backend),
    # tmux to drive the terminal brew, jq and GNU time for the benchmarks, openssl for the test CA,
    # lighttpd-mod-openssl for the HTTPS remote, tinyproxy-bin (the proxy alone, no service) for
    # http.proxy and https_proxy, git-filter-repo for the README's "deleting for good".
    for p in openssh-server openssh-client lighttpd lighttpd-mod-openssl tinyproxy-bin tmux jq openssl procps time git-filter-repo; do have_pkg "$p" || need+=("$p"); done
    # Power cuts: the tests' own FUSE file system (compiled with cc against fuse3, mounted and
    # unmounted with fusermount3), and strace to see which writes are flushed.
    for p in fuse3 libfuse3-dev gcc strace; do have_pkg "$p" || need+=("$p"); done
    # Encrypted remotes and git's filters: git-remote-gcrypt with GnuPG (gpg, gpg-agent, gpgconf;
    # a throwaway key in a private GNUPGHOME), git-crypt for the filter-driver refusal.
    for p in git-remote-gcrypt gnupg git-crypt; do have_pkg "$p" || need+=("$p"); done
    # Reminders: a private session bus (dbus-daemon, dbus-send), a notification server (dunst,
    # read back with dunstctl, which calls busctl) on an X display (Xvfb), systemd-analyze to
    # verify the user unit.
    for p in dbus-daemon dbus-bin dunst xvfb systemd; do have_pkg "$p" || need+=("$p"); done
    # `make install` into a temporary prefix, read back with man (man-db); the schemas judged by
    # Python's jsonschema against `ledger check`.
    for p in make man-db; do have_pkg "$p" || need+=("$p"); done
    # The installed zsh and fish completions, driven by the real shells.
    for p in zsh fish; do have_pkg "$p" || need+=("$p"); done
    # python3 with its iCalendar parser (it reads `ledger hydrate export --ics` in the tests) runs
    # the benchmarks too. Debian's python3 takes Debian's package (pip is refused there, PEP 668).
    py=$(command -v python3 || true)
    if [ -z "$py" ] || { [ "$(readlink -f "$py")" = "$(readlink -f /usr/bin/python3 2>/dev/null)" ] && ! "$py" -c 'import icalendar, jsonschema' 2>/dev/null; }; then
        for p in python3 python3-icalendar python3-jsonschema; do have_pkg "$p" || need+=("$p"); done
    fi
fi

if [ ${#need[@]} -gt 0 ]; then
    echo "installing: ${need[*]}"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if [ "$what" = test ] && ! python3 -c 'import icalendar, jsonschema' 2>/dev/null; then
    # Another python3 first on the PATH (pyenv, a virtualenv) gets them from PyPI.
    python3 -m pip install -q icalendar jsonschema
fi
