#!/usr/bin/env bash
# The client libraries' examples (Examples/) profiled by `launchprof exec` as issue 15 describes: the
# C, Swift, Python and shell keypads each show their own phases, marks and counts, write a result
# that validates against docs/result.schema.json, and a phase they never report fails the run.
# Run by Tests/Integration/run.sh (after `swift build --build-tests`, which builds the Swift example).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${LAUNCHPROF:-.build/debug/launchprof}
SWIFT_EXAMPLE=${LAUNCHPROF_EXAMPLE_SWIFT:-$(dirname "$BIN")/launchprof-example-swift}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CONFIG=Examples/keypad.conf

fail() { echo "clients: FAILED: $*" >&2; exit 1; }

C_EXAMPLE=yes
if command -v "${CC:-cc}" >/dev/null; then make -s -C Examples/c >/dev/null; else C_EXAMPLE=; echo "clients: the C example is skipped: no C compiler (${CC:-cc})"; fi
[ -x "$SWIFT_EXAMPLE" ] || fail "$SWIFT_EXAMPLE is not built (swift build --build-tests builds it)"
python3 -c "import jsonschema" 2>/dev/null || python3 -m pip install --quiet jsonschema >"$WORK/pip.log" 2>&1

check() {
  local label=$1
  shift
  local report="$WORK/$label.txt" result="$WORK/$label.json"
  if ! "$BIN" exec --runs 2 --all-phases --expect-phase 'loading config' --output "$result" -- "$@" >"$report" 2>&1; then
    cat "$report" >&2
    fail "$label: launchprof exec -- $* exited non-zero"
  fi
  for line in 'Time for loading config: ' '  Time for reading file: ' '  Time for parsing: ' 'Time for laying out keys: ' \
              'Time for drawing: ' 'Time to first frame: ' 'Time to interactive: ' 'Counts: 20 keys laid out'; do
    grep -qF -- "$line" "$report" || { cat "$report" >&2; fail "$label: the report has no line '$line'"; }
  done
  python3 - "$result" "$label" <<'PY'
import json, sys, jsonschema
result = json.load(open(sys.argv[1]))
jsonschema.validate(result, json.load(open("docs/result.schema.json")))
expected = ["process start", "loading config", "reading file", "parsing", "laying out keys", "drawing"]
for run in result["runs"]:
    names = [phase["name"] for phase in run["phases"]]
    assert names == expected, f"{sys.argv[2]}: phases {names}"
    assert [mark["name"] for mark in run["marks"]] == ["first frame", "interactive"], run["marks"]
PY
  # A phase the program never reports fails the run, naming it.
  if "$BIN" exec --runs 1 --warmup 0 --expect-phase 'no such phase' -- "$@" >"$report" 2>&1; then
    fail "$label: a missing --expect-phase did not fail the run"
  fi
  grep -qF "never reported the phase 'no such phase'" "$report" || { cat "$report" >&2; fail "$label: no clear error for a missing phase"; }
  echo "clients: OK: $label: launchprof exec shows its phases, marks and count; its result validates; a missing phase fails"
}

[ -z "$C_EXAMPLE" ] || check c Examples/c/keypad "$CONFIG"
check swift "$SWIFT_EXAMPLE" "$CONFIG"
check python python3 Examples/python/keypad.py "$CONFIG"
check shell Examples/shell/keypad.sh "$CONFIG"
