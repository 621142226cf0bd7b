#!/usr/bin/env bash
# The instruction gate for any program (docs/instructions.md): `launchprof exec --metric instructions`
# gives the C, Swift and Python examples a count per phase, repeatable run to run; a program without a
# client its whole-process count; `check` catches a C program whose phase does 2% more work and passes
# an unchanged one; and refuses (exit 2) a baseline measured on another target.
# Run by Tests/Integration/run.sh (after `swift build --build-tests`, which builds the Swift example).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BIN=$(realpath "${LAUNCHPROF:-.build/debug/launchprof}")
SWIFT_EXAMPLE=${LAUNCHPROF_EXAMPLE_SWIFT:-$(dirname "$BIN")/launchprof-example-swift}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CONFIG=Examples/keypad.conf

fail() { echo "instructions: FAILED: $*" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "instructions: skipped: valgrind is not installed (make setup)"; exit 0; }
CC=${CC:-cc}
command -v "$CC" >/dev/null || { echo "instructions: skipped: no C compiler ($CC)"; exit 0; }
[ -f /usr/include/valgrind/callgrind.h ] || fail "valgrind/callgrind.h is missing (the valgrind package has it)"

# Every run of RESULT has a count for each phase named, and the runs' counts agree within 0.1%.
counted() {
  python3 - "$@" <<'PY'
import json, sys
path, label, *expected = sys.argv[1:]
result = json.load(open(path))
try:
    import jsonschema
    jsonschema.validate(result, json.load(open("docs/result.schema.json")))
except ImportError:
    pass  # clients.sh installs it; run.sh runs that first
assert result["configuration"]["metric"] == "instructions", f"{label}: not an instruction result"
runs = result["runs"]
assert len(runs) == 2, f"{label}: {len(runs)} runs, not the default 2"
per_run = []
for run in runs:
    assert isinstance(run.get("instructions"), int) and run["instructions"] > 0, f"{label}: no whole count: {run.get('instructions')}"
    counts = {phase["name"]: phase.get("instructions") for phase in run["phases"]}
    assert list(counts) == expected, f"{label}: phases {list(counts)}, expected {expected}"
    missing = [name for name, count in counts.items() if not isinstance(count, int) or count <= 0]
    assert not missing, f"{label}: no instruction count for {missing}"
    top = sum(phase["instructions"] for phase in run["phases"] if phase.get("depth", 0) == 0)
    assert top <= run["instructions"], f"{label}: the phases count more than the whole process"
    per_run.append(counts | {"(whole process)": run["instructions"]})
for name in per_run[0]:
    a, b = per_run[0][name], per_run[1][name]
    assert abs(a - b) <= max(a, b) * 0.001, f"{label}: '{name}' counted {a} then {b}: not repeatable"
print(f"instructions: OK: {label}: " + ", ".join(f"{name} {count}" for name, count in per_run[0].items()))
PY
}

# The interpreter itself, not a shim that execs it (pyenv's runs dozens of shell processes, each
# under Valgrind: counted right, but minutes slower).
PYTHON=$(python3 -c 'import sys; print(sys.executable)')
PHASES=("process start" "loading config" "reading file" "parsing" "laying out keys" "drawing")
make -s -C Examples/c >/dev/null
"$BIN" exec --metric instructions --quiet --output "$WORK/c.json" -- Examples/c/keypad "$CONFIG" >"$WORK/c.txt"
counted "$WORK/c.json" "C example" "${PHASES[@]}"
"$BIN" exec --metric instructions --quiet --output "$WORK/swift.json" -- "$SWIFT_EXAMPLE" "$CONFIG" >"$WORK/swift.txt"
counted "$WORK/swift.json" "Swift example" "${PHASES[@]}"
"$BIN" exec --metric instructions --quiet --output "$WORK/python.json" -- "$PYTHON" Examples/python/keypad.py "$CONFIG" >"$WORK/python.txt"
counted "$WORK/python.json" "Python example" "${PHASES[@]}"

# Phases on two threads, nested: each counted by its own thread's dumps, in proportion to its work.
"$CC" -O2 -pthread -Iinclude -o "$WORK/threads" Tests/LaunchprofClientTests/Programs/instruction_threads.c
"$BIN" exec --metric instructions --quiet --output "$WORK/threads.json" -- "$WORK/threads" >/dev/null
counted "$WORK/threads.json" "two threads" "process start" "main setup" "worker setup" "worker load" "worker decode" "main layout"
python3 - "$WORK/threads.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
count = {phase["name"]: phase["instructions"] for phase in run["phases"]}
threads = {phase["name"]: phase.get("thread", 0) for phase in run["phases"]}
assert threads["worker decode"] == threads["worker setup"] != 0, threads
# work(n) is the same loop everywhere: the counts follow n (20,000 : 50,000 : 100,000 : 300,000).
per = lambda name, n: count[name] / n
assert all(0.8 < per(name, n) / per("worker decode", 300000) < 1.25 for name, n in
           [("worker setup", 20000), ("main setup", 50000), ("main layout", 100000)]), count
assert count["worker decode"] <= count["worker load"] < count["worker decode"] * 1.05, count
print("instructions: OK: two threads' nested phases each counted in proportion to their work")
PY

# A program without a client: its whole-process count, no phases.
"$BIN" exec --metric instructions --quiet --output "$WORK/true.json" -- /bin/true >/dev/null
counted "$WORK/true.json" "/bin/true (no client)"

# The Python client without its helper: the whole count, and a warning that says why.
"$BIN" exec --metric instructions --runs 1 --warmup 0 --output "$WORK/nohelper.json" -- \
  env -u LAUNCHPROF_CALLGRIND_HELPER "$PYTHON" Examples/python/keypad.py "$CONFIG" >/dev/null 2>"$WORK/nohelper.err" \
  || { cat "$WORK/nohelper.err" >&2; fail "the Python example without the helper did not run"; }
grep -q "made no Callgrind dumps" "$WORK/nohelper.err" || { cat "$WORK/nohelper.err" >&2; fail "no warning for phases without counts"; }
echo "instructions: OK: a client without Callgrind requests gets the whole count and a warning"

# The gate: the same command at two "commits", the second with a phase doing 2% more work.
gate=$WORK/gate/app
mkdir -p "$WORK/gate"
build() { "$CC" -O2 -pthread -I"$ROOT/include" -DSLOWER_PERCENT="$1" -o "$gate" "$ROOT/Tests/LaunchprofClientTests/Programs/instruction_gate.c"; }
measure() { (cd "$WORK/gate" && "$BIN" exec --metric instructions --quiet --output "$1" -- ./app >/dev/null); }
build 0 && measure "$WORK/base.json"
build 0 && measure "$WORK/same.json"
build 2 && measure "$WORK/slow.json"
if ! (cd "$WORK/gate" && "$BIN" check --result "$WORK/same.json" --baseline "$WORK/base.json" >"$WORK/same.out" 2>&1); then
  cat "$WORK/same.out" >&2; fail "check failed an unchanged program"
fi
status=0
(cd "$WORK/gate" && "$BIN" check --result "$WORK/slow.json" --baseline "$WORK/base.json" >"$WORK/slow.out" 2>&1) || status=$?
[ "$status" = 1 ] || { cat "$WORK/slow.out" >&2; fail "check exited $status on a phase with 2% more work, not 1"; }
grep -q "regression in 'computing'" "$WORK/slow.out" || { cat "$WORK/slow.out" >&2; fail "check did not name the slower phase"; }
grep -q "regression in 'reading input'" "$WORK/slow.out" && { cat "$WORK/slow.out" >&2; fail "check named the unchanged phase"; }
echo "instructions: OK: check fails a phase with 2% more instructions (exit 1, naming it) and passes an unchanged build"

# A shell command line is counted whole, the program's phases from the process that reported them:
# --baseline-command (a shell command line) against the slower build, interleaved.
cp "$gate" "$WORK/gate/slow-app" && build 0 && cp "$gate" "$WORK/gate/base-app"
status=0
"$BIN" exec --metric instructions --baseline-command "$WORK/gate/base-app" --fail-on-regression -- "$WORK/gate/slow-app" >"$WORK/pair.out" 2>&1 || status=$?
[ "$status" = 1 ] && grep -q "regression in 'computing'" "$WORK/pair.out" || { cat "$WORK/pair.out" >&2; fail "exec --baseline-command did not catch the slower phase (exit $status)"; }
grep -q "reading input .*within noise" "$WORK/pair.out" || { cat "$WORK/pair.out" >&2; fail "the shell's child's phases have no counts"; }
echo "instructions: OK: exec --metric instructions --baseline-command counts the shell command's program per phase and catches the slower one"

# Like with like: a baseline of another program, or of the built-in app, is refused (exit 2).
refused() {
  local label=$1 expected=$2
  shift 2
  status=0
  "$@" >"$WORK/refused.out" 2>&1 || status=$?
  [ "$status" = 2 ] && grep -qF -- "$expected" "$WORK/refused.out" || { cat "$WORK/refused.out" >&2; fail "$label: exit $status, expected 2 and '$expected'"; }
  echo "instructions: OK: $label: refused, exit 2"
}
python3 - "$WORK/base.json" "$WORK/app.json" "$WORK/other.json" <<'PY'
import json, sys
base = json.load(open(sys.argv[1]))
app = dict(base); del app["command"]; app["manifest"] = {"name": "default", "path": "", "sha256": ""}
json.dump(app, open(sys.argv[2], "w"))
other = dict(base); other["manifest"] = dict(base["manifest"], name="./other"); other["command"] = dict(base["command"], arguments=["./other"])
json.dump(other, open(sys.argv[3], "w"))
PY
refused "a program against the built-in app's baseline" "measured the built-in app (manifest default), but" \
  "$BIN" check --result "$WORK/slow.json" --baseline "$WORK/app.json"
refused "another program's baseline" "measured the program './other'" \
  "$BIN" check --result "$WORK/slow.json" --baseline "$WORK/other.json"
(cd "$WORK/gate" && "$BIN" exec --runs 2 --quiet --output "$WORK/time.json" -- ./app >/dev/null)
refused "a timed result against an instruction baseline" "was measured in instructions, but" \
  "$BIN" check --result "$WORK/time.json" --baseline "$WORK/base.json"
refused "the built-in app profiled against a program's baseline" "but the candidate profiled now is the built-in app" \
  "$BIN" check --metric instructions --baseline "$WORK/base.json"
