#!/usr/bin/env bash
# `make fuzz`: builds launchprof-fuzz with libFuzzer and AddressSanitizer (scratch path .build-fuzz)
# and fuzzes every parser for FUZZ_SECONDS (default 60) each, starting from Tests/Fuzz/Corpus/<target>/.
# New corpus entries go to a temporary directory (the repository's corpus is only read). A crash,
# timeout or out-of-memory input is copied to Tests/Fuzz/Regressions/<target>/, where
# FuzzRegressionTests replays it on every `make test`. Exit status 1 when any target crashed.
# FUZZ_TARGETS="theme png" limits the run to some targets.
set -uo pipefail
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
SECONDS_EACH=${FUZZ_SECONDS:-60}
TARGETS=${FUZZ_TARGETS:-theme data manifest result tiers budgets protocol png python-importtime git-trace2 chrome-trace ready-pattern callgrind perf-script}
SCRATCH=.build-fuzz
case "$SECONDS_EACH" in ''|*[!0-9]*) echo "FUZZ_SECONDS must be a whole number of seconds, not '$SECONDS_EACH'" >&2; exit 2 ;; esac

"$SWIFT" build -c release --scratch-path "$SCRATCH" --product launchprof-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DLAUNCHPROF_FUZZ -Xcc -fsanitize=fuzzer-no-link,address || exit 2
BIN="$SCRATCH/release/launchprof-fuzz"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/launchprof-fuzz.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# Foundation's XMLParser leaks a string per parse error: leak reports would only be about it.
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
# libFuzzer prints the stack of a crash; Swift's own backtracer would only slow it down.
export SWIFT_BACKTRACE=enable=no

failed=0
summary=""
for target in $TARGETS; do
    seeds="Tests/Fuzz/Corpus/$target"
    [ -d "$seeds" ] || { echo "no seed corpus $seeds" >&2; exit 2; }
    mkdir -p "$WORK/$target/corpus" "$WORK/$target/artifacts"
    echo "fuzzing $target for ${SECONDS_EACH}s" >&2
    LAUNCHPROF_FUZZ_TARGET="$target" "$BIN" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$WORK/$target/artifacts/" \
        "$WORK/$target/corpus" "$seeds" >"$WORK/$target/log" 2>&1
    status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/$target/log" | tail -n 1)
    found=$(find "$WORK/$target/artifacts" -type f ! -name 'slow-unit-*' | wc -l)
    if [ "$found" -gt 0 ] || [ "$status" -ne 0 ]; then
        failed=1
        mkdir -p "Tests/Fuzz/Regressions/$target"
        for artifact in "$WORK/$target/artifacts"/*; do
            [ -f "$artifact" ] && case "$(basename "$artifact")" in slow-unit-*) ;; *) cp "$artifact" "Tests/Fuzz/Regressions/$target/" ;; esac
        done
        echo "---- $target: libFuzzer exited $status; its report:" >&2
        grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)' "$WORK/$target/log" | tail -n 60 >&2
        echo "---- crashing inputs copied to Tests/Fuzz/Regressions/$target/" >&2
        [ "$found" -gt 0 ] || found="exit $status"
    fi
    summary+=$(printf '%-17s %12s executions  %s crashes' "$target" "${executions:-?}" "$found")$'\n'
done
printf '\nfuzzing, %ss per target:\n%s' "$SECONDS_EACH" "$summary"
exit $failed
