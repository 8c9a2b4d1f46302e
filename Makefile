# ledger — build, test, demo and benchmark.
# `make demo` and `make test` work on a fresh Debian machine: they install what they need.

PREFIX ?= /usr/local
SWIFT ?= swift
BENCH_SCALE ?= 1

.PHONY: all deps test-deps build release test test-fast demo bench fuzz install uninstall clean

all: build

## deps: the build's system packages (libgit2-dev, pkg-config, git), installed when missing.
deps:
	@scripts/install-deps.sh build

## test-deps: what the tests' real servers and terminals need (sshd, a web server, tmux, …).
test-deps: deps
	@scripts/install-deps.sh test

build: deps
	$(SWIFT) build

# The installed binary: the Swift runtime and Foundation linked in (--static-swift-stdlib),
# libgit2 and libdbus loaded on first use (scripts/lazy-libraries.py), and linked at a fixed
# address (-no-pie: no 85,000 pointers relocated at each start): a command starts in about a
# third of the time (docs/BENCHMARKS.md, "Start-up"). `make release PIE=1` keeps a
# position-independent executable. The tests run the debug build.
PIE ?=
RELEASE_FLAGS := -c release --static-swift-stdlib $(if $(PIE),,-Xlinker -no-pie)

release: deps
	$(SWIFT) build $(RELEASE_FLAGS)
	@scripts/lazy-libraries.py "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/ledger"

# Randomized sync histories in the full tier (ConvergenceTests; the tests' own default is
# small, for a plain `swift test`).
CONVERGENCE_HISTORIES ?= 200

# The suites only `make test` runs: real servers (ssh, git daemon, HTTP(S)), terminals in
# tmux in real time, the reminder process on a desktop bus (the LedgerRemindTests target),
# and sync journeys between real repositories — crash points and randomized histories
# included (every suite under Tests/LedgerCLITests/Sync/, one per file).
FULL_ONLY_SUITES := $(basename $(notdir $(wildcard Tests/LedgerCLITests/Sync/*.swift))) \
	BrewSyncTests SSHCommandTests BrewTerminalTests RemindTerminalTests
FULL_ONLY := LedgerRemindTests\.|\.($(subst $(eval) ,|,$(strip $(FULL_ONLY_SUITES))))/

## test: every test suite (unit, end-to-end and real-server tests); what CI runs.
# The power-cut suite runs alone, after the others: its FUSE file systems and their fsyncs
# ran ten times slower beside the other suites (24 min in all, against 2 min alone).
POWERCUT := \.PowerCutTests/

test: test-deps
	$(SWIFT) build --build-tests
	LEDGER_CONVERGENCE_HISTORIES=$(CONVERGENCE_HISTORIES) $(SWIFT) test --skip-build --skip '$(POWERCUT)'
	$(SWIFT) test --skip-build --filter '$(POWERCUT)'

## test-fast: the unit and in-process suites, for the edit-test loop (no servers, terminals or
## sync journeys; under a minute on a 2-core machine after a build).
test-fast: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip '$(FULL_ONLY)'

## demo: a tour of ledger on a copy of sample-data in a temporary ledger.
demo: deps
	$(SWIFT) build
	@scripts/demo.sh "$$($(SWIFT) build --show-bin-path)/ledger"

## fuzz: hostile hand edits against the debug build, bounded (`scripts/fuzz.py --help` for a long run).
fuzz: deps
	$(SWIFT) build
	@scripts/fuzz.py "$$($(SWIFT) build --show-bin-path)/ledger" --quick

## bench: ledger against git, jq and python on a generated ten-year ledger (BENCH_SCALE=10 for 10×).
bench: test-deps release
	@scripts/bench.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" $(BENCH_SCALE)

## install: ledger, a man page per command and the bash/zsh/fish completions under PREFIX
## (BIN=DIR installs an already built DIR/ledger instead of building a release).
BIN ?=
install: $(if $(BIN),,release)
	@scripts/install.sh "$(if $(BIN),$(BIN),$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path))" "$(DESTDIR)$(PREFIX)"

## uninstall: removes everything install put under PREFIX.
uninstall:
	@scripts/install.sh --uninstall "$(DESTDIR)$(PREFIX)"

clean:
	rm -rf .build bench-data
