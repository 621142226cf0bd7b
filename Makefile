# launchprof — the README's two commands are `make run` and `make test`.
SWIFT ?= swift
RELEASE_FLAGS ?= -c release
BIN := .build/release/launchprof

.PHONY: setup build run test bench bench-client bench-gate fuzz install install-files uninstall deb install-client format format-check clean

# Installs the system packages the build needs, only when they are missing.
setup:
	@if ! pkg-config --exists libpng 2>/dev/null; then \
		echo "libpng not found by pkg-config: installing libpng-dev"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && $$SUDO apt-get install -y libpng-dev pkg-config; \
	fi
	@if ! pkg-config --exists libxml-2.0 2>/dev/null; then \
		echo "libxml2 not found by pkg-config: installing libxml2-dev"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && $$SUDO apt-get install -y libxml2-dev pkg-config; \
	fi
	@if ! command -v valgrind >/dev/null 2>&1 || [ ! -f /usr/include/valgrind/callgrind.h ]; then \
		echo "valgrind not found: installing valgrind (for --metric instructions)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && $$SUDO apt-get install -y valgrind; \
	fi
	@if ! pkg-config --exists sqlite3 2>/dev/null; then \
		echo "sqlite3 not found by pkg-config: installing libsqlite3-dev (the results history)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && $$SUDO apt-get install -y libsqlite3-dev pkg-config; \
	fi
	@if ! pkg-config --exists libpq 2>/dev/null; then \
		echo "libpq not found by pkg-config: installing libpq-dev (PostgreSQL histories)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && $$SUDO apt-get install -y libpq-dev pkg-config; \
	fi
	@if [ ! -x /usr/lib/postgresql/15/bin/initdb ]; then \
		echo "PostgreSQL 15 not found: installing postgresql-15 (the tests start a throwaway server)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && $$SUDO apt-get install -y postgresql-15 || echo "could not install postgresql-15: its tests are skipped"; \
	fi
	@if ! command -v perf >/dev/null 2>&1; then \
		echo "perf not found: installing linux-perf (for --sample)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update && $$SUDO apt-get install -y linux-perf || echo "could not install linux-perf: --sample and its tests cannot run"; \
	fi
	@command -v pkg-config >/dev/null || { echo "pkg-config is required" >&2; exit 2; }

build: setup
	$(SWIFT) build $(RELEASE_FLAGS) --product launchprof

# Builds a release binary and profiles the default launch.
run: build
	$(BIN) run --precision 3

test: setup
	@# Every temporary file of the build and the tests goes to one directory ($$TMPDIR), removed when
	@# the tests end, pass or fail. The failures are printed again at the end, where a CI log's tail shows them.
	@scratch=$$(mktemp -d "$${TMPDIR:-/tmp}/launchprof-tests.XXXXXX") || exit 2; \
	trap 'rm -rf "$$scratch"' EXIT; \
	export TMPDIR="$$scratch"; \
	echo "$(SWIFT) build --build-tests"; $(SWIFT) build --build-tests || exit 1; \
	bash -o pipefail -c '$(SWIFT) test --skip-build 2>&1 | tee .build/unit-tests.log' || { \
		echo "== failed tests and what they recorded (the whole output is in .build/unit-tests.log) =="; \
		grep -aE "✘|recorded an issue|Expectation failed|Caught error|error:" .build/unit-tests.log | tail -80; exit 1; }; \
	Tests/Integration/run.sh

# Benchmarks: timing goals live here, never in unit tests.
bench: setup
	@command -v hyperfine >/dev/null 2>&1 || { echo "hyperfine not found: installing it (the reference of the exec overhead benchmark)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); $$SUDO apt-get install -y hyperfine >/dev/null 2>&1 || echo "could not install hyperfine: that benchmark is skipped"; }
	@pkg-config --exists pixman-1 2>/dev/null || { echo "pixman not found by pkg-config: installing libpixman-1-dev (the reference of the drawing benchmark)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); $$SUDO apt-get install -y libpixman-1-dev >/dev/null 2>&1 || echo "could not install libpixman-1-dev: that comparison is skipped"; }
	$(SWIFT) build $(RELEASE_FLAGS) --product launchprof-bench
	$(SWIFT) build $(RELEASE_FLAGS) --product launchprof
	.build/release/launchprof-bench
	.build/release/launchprof-bench functions-cost 5
	.build/release/launchprof-bench counters-cost 20
	.build/release/launchprof-bench sample-cost 9
	@$(MAKE) --no-print-directory bench-client

# The C client's cost per event beside a bare write of the same line (Benchmarks/client).
bench-client:
	@if command -v $(CC) >/dev/null 2>&1; then \
		mkdir -p .build && $(CC) -O2 -pthread -Iinclude Benchmarks/client/client_bench.c -o .build/client-bench && .build/client-bench; \
	else \
		echo "c client: skipped: no C compiler ($(CC) is not on PATH)"; \
	fi

# Installs launchprof into $(DESTDIR)$(PREFIX) (docs/install.md): the binary in bin/, its helpers in
# libexec/launchprof/ (found from the binary's own path, so the prefix can be moved), the C header, the
# Python client, the built-in app's fixtures, the man page and the bash, zsh and fish completions.
# The binaries are the release build (make build; INSTALL_FROM=.build/debug installs a debug build);
# their debug information is stripped when `strip` exists (Valgrind then runs them as they are).
PREFIX ?= /usr/local
INSTALL_FROM ?= .build/release
STRIP ?= strip
INSTALL_FIXTURES := default heavy
install: build
	@$(MAKE) --no-print-directory install-files

# The copying step of `install`, from an existing release build (make build).
install-files:
	@[ -x $(INSTALL_FROM)/launchprof ] && [ -x $(INSTALL_FROM)/launchprof-app ] && [ -x $(INSTALL_FROM)/launchprof-spawn ] || \
		{ echo "install: $(INSTALL_FROM)/launchprof and its helpers are not built (make build)" >&2; exit 2; }
	@[ -n "$(PREFIX)" ] && case "$(PREFIX)" in /*) ;; *) false;; esac || { echo "install: PREFIX must be an absolute path (got '$(PREFIX)')" >&2; exit 2; }
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/libexec/launchprof" "$(DESTDIR)$(PREFIX)/include" \
		"$(DESTDIR)$(PREFIX)/share/launchprof/python" "$(DESTDIR)$(PREFIX)/share/man/man1" \
		"$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
		"$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -m 755 $(INSTALL_FROM)/launchprof "$(DESTDIR)$(PREFIX)/bin/launchprof"
	install -m 755 $(INSTALL_FROM)/launchprof-app $(INSTALL_FROM)/launchprof-spawn "$(DESTDIR)$(PREFIX)/libexec/launchprof/"
	@if command -v $(STRIP) >/dev/null 2>&1; then \
		echo "$(STRIP) --strip-debug bin/launchprof libexec/launchprof/*"; \
		$(STRIP) --strip-debug "$(DESTDIR)$(PREFIX)/bin/launchprof" "$(DESTDIR)$(PREFIX)/libexec/launchprof/launchprof-app" \
			"$(DESTDIR)$(PREFIX)/libexec/launchprof/launchprof-spawn"; \
	fi
	install -m 644 include/launchprof.h "$(DESTDIR)$(PREFIX)/include/launchprof.h"
	install -m 644 clients/python/launchprof.py "$(DESTDIR)$(PREFIX)/share/launchprof/python/launchprof.py"
	@for fixture in $(INSTALL_FIXTURES); do \
		(cd Fixtures && find "$$fixture" -type f ! -name 'Loading.png*') | while read -r file; do \
			install -D -m 644 "Fixtures/$$file" "$(DESTDIR)$(PREFIX)/share/launchprof/Fixtures/$$file" || exit 1; \
		done || exit 1; \
	done; echo "installed the fixtures $(INSTALL_FIXTURES) in $(PREFIX)/share/launchprof/Fixtures"
	$(INSTALL_FROM)/launchprof --generate-completion-script bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/launchprof"
	$(INSTALL_FROM)/launchprof --generate-completion-script zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_launchprof"
	$(INSTALL_FROM)/launchprof --generate-completion-script fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/launchprof.fish"
	$(INSTALL_FROM)/launchprof --experimental-dump-help | python3 Packaging/manpage.py > "$(DESTDIR)$(PREFIX)/share/man/man1/launchprof.1"
	@echo "installed launchprof in $(DESTDIR)$(PREFIX): $(PREFIX)/bin/launchprof"

# Removes what `install` put in $(DESTDIR)$(PREFIX) (the same PREFIX).
uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/launchprof" "$(DESTDIR)$(PREFIX)/include/launchprof.h" \
		"$(DESTDIR)$(PREFIX)/share/man/man1/launchprof.1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/launchprof" \
		"$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_launchprof" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/launchprof.fish"
	rm -rf "$(DESTDIR)$(PREFIX)/libexec/launchprof" "$(DESTDIR)$(PREFIX)/share/launchprof"

# A Debian package (dpkg-deb) of `make install PREFIX=/usr`, in .build/deb/launchprof_VERSION_ARCH.deb.
# VERSION=… sets the package's version (default: the commit's tag, else 0.0~gitDATE.COMMIT).
deb: build
	VERSION="$(VERSION)" Packaging/deb.sh

# Installs the C client's header (include/launchprof.h) in $(DESTDIR)$(PREFIX)/include.
install-client:
	install -d "$(DESTDIR)$(PREFIX)/include"
	install -m 644 include/launchprof.h "$(DESTDIR)$(PREFIX)/include/launchprof.h"

# Detection power of `launchprof check` (a long run): per gate, no-change trials and trials per change.
INSTRUCTION_TRIALS ?= 100
INSTRUCTION_CHANGE_TRIALS ?= 20
TIME_TRIALS ?= 20
PROGRAM_TRIALS ?= 20
# Separate invocations of `run --tier` whose medians say what the host moves between them (tier-drift).
DRIFT_INVOCATIONS ?= 12
FUNCTION_TRIALS ?= 20
bench-gate: setup
	$(SWIFT) build $(RELEASE_FLAGS) --product launchprof-bench
	$(SWIFT) build $(RELEASE_FLAGS) --product launchprof
	.build/release/launchprof-bench gate instructions $(INSTRUCTION_TRIALS) $(INSTRUCTION_CHANGE_TRIALS)
	.build/release/launchprof-bench gate program $(PROGRAM_TRIALS) $(PROGRAM_TRIALS)
	.build/release/launchprof-bench gate functions $(FUNCTION_TRIALS)
	.build/release/launchprof-bench gate time-auto $(TIME_TRIALS) $(TIME_TRIALS)
	.build/release/launchprof-bench gate time-10 $(TIME_TRIALS) $(TIME_TRIALS)
	.build/release/launchprof-bench gate time-tier $(TIME_TRIALS) $(TIME_TRIALS)
	.build/release/launchprof-bench tier-drift $(DRIFT_INVOCATIONS) 20

# Fuzzes every parser with libFuzzer + AddressSanitizer (build in .build-fuzz), FUZZ_SECONDS each
# (default 60), from the seed corpus in Tests/Fuzz/Corpus; crashing inputs land in Tests/Fuzz/Regressions.
FUZZ_SECONDS ?= 60
fuzz: setup
	SWIFT=$(SWIFT) FUZZ_SECONDS=$(FUZZ_SECONDS) Tests/Fuzz/run.sh

# Formats every Swift file in place with swift-format (part of the toolchain; .swift-format: 4 spaces,
# 160 columns, layout only: no rule rewrites code).
SWIFT_FORMAT_PATHS := Package.swift Sources Tests Benchmarks Examples
format:
	$(SWIFT) format format --in-place --recursive --parallel $(SWIFT_FORMAT_PATHS)

# Fails, listing the places, when a file is not as `make format` leaves it (CI runs it).
format-check:
	$(SWIFT) format lint --strict --recursive --parallel $(SWIFT_FORMAT_PATHS)

clean:
	rm -rf .build .build-fuzz Fixtures/*/Loading.png
