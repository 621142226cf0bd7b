# launchprof — the README's two commands are `make run` and `make test`.
SWIFT ?= swift
RELEASE_FLAGS ?= -c release
BIN := .build/release/launchprof

.PHONY: setup build run test bench bench-client bench-gate fuzz install-client format format-check clean

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
	@$(MAKE) --no-print-directory bench-client

# The C client's cost per event beside a bare write of the same line (Benchmarks/client).
bench-client:
	@if command -v $(CC) >/dev/null 2>&1; then \
		mkdir -p .build && $(CC) -O2 -pthread -Iinclude Benchmarks/client/client_bench.c -o .build/client-bench && .build/client-bench; \
	else \
		echo "c client: skipped: no C compiler ($(CC) is not on PATH)"; \
	fi

# Installs the C client's header (include/launchprof.h) in $(DESTDIR)$(PREFIX)/include.
PREFIX ?= /usr/local
install-client:
	install -d "$(DESTDIR)$(PREFIX)/include"
	install -m 644 include/launchprof.h "$(DESTDIR)$(PREFIX)/include/launchprof.h"

# Detection power of `launchprof check` (a long run): per gate, no-change trials and trials per change.
INSTRUCTION_TRIALS ?= 100
INSTRUCTION_CHANGE_TRIALS ?= 20
TIME_TRIALS ?= 20
bench-gate: setup
	$(SWIFT) build $(RELEASE_FLAGS) --product launchprof-bench
	$(SWIFT) build $(RELEASE_FLAGS) --product launchprof
	.build/release/launchprof-bench gate instructions $(INSTRUCTION_TRIALS) $(INSTRUCTION_CHANGE_TRIALS)
	.build/release/launchprof-bench gate time-auto $(TIME_TRIALS) $(TIME_TRIALS)
	.build/release/launchprof-bench gate time-10 $(TIME_TRIALS) $(TIME_TRIALS)
	.build/release/launchprof-bench gate time-tier $(TIME_TRIALS) $(TIME_TRIALS)

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
