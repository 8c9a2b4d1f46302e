# ledger — build, test, demo and benchmark.
# `make demo` and `make test` work on a fresh Debian machine: they install what they need.

PREFIX ?= /usr/local
SWIFT ?= swift
BENCH_SCALE ?= 1

.PHONY: all deps test-deps build release test demo bench fuzz install uninstall clean

all: build

## deps: the build's system packages (libgit2-dev, pkg-config, git), installed when missing.
deps:
	@scripts/install-deps.sh build

## test-deps: what the tests' real servers and terminals need (sshd, a web server, tmux, …).
test-deps: deps
	@scripts/install-deps.sh test

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## test: every test suite (unit, end-to-end and real-server tests).
test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test

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
	@scripts/bench.sh "$$($(SWIFT) build -c release --show-bin-path)" $(BENCH_SCALE)

install: release
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 "$$($(SWIFT) build -c release --show-bin-path)/ledger" "$(DESTDIR)$(PREFIX)/bin/ledger"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/ledger"

clean:
	rm -rf .build bench-data
