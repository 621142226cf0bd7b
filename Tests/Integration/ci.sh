#!/usr/bin/env bash
# The CI recipe for someone else's repository (ci/launchprof-ci.sh, what action.yml runs), run as the
# action would on a throwaway git repository: a small C program with two phases (include/launchprof.h),
# a commit making its "drawing" phase 3% slower (a loop count), then a neutral commit (a README change).
#   instructions (the action's default): base -> slower fails (exit 1) naming drawing, with a GitHub
#     ::error annotation and one step summary; slower -> neutral passes (exit 0). Skipped, saying so,
#     when this launchprof has no `exec --metric` (the instruction gate for programs).
#   time: the same plumbing with a change wall-clock time sees on a shared machine (drawing 20 times
#     longer) fails naming drawing; the neutral commit passes at a 50% threshold and a 50 ms minimum.
# Settings the script rejects exit 2 before anything is built.
# Run by Tests/Integration/run.sh; LAUNCHPROF names the launchprof binary, LAUNCHPROF_HEADER the C
# header (default include/launchprof.h).
set -euo pipefail
cd "$(dirname "$0")/../.."
CHECKOUT=$PWD
BIN=$(cd "$(dirname "${LAUNCHPROF:-.build/debug/launchprof}")" && pwd)/$(basename "${LAUNCHPROF:-.build/debug/launchprof}")
SCRIPT=$CHECKOUT/ci/launchprof-ci.sh
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

fail() { echo "ci: FAILED: $*" >&2; exit 1; }
command -v "${CC:-cc}" >/dev/null || { echo "ci: skipped: no C compiler (${CC:-cc}) to build the test program"; exit 0; }

# The throwaway repository: the header vendored as a user would, the loop counts in work.h.
REPO=$WORK/repo
mkdir -p "$REPO/include"
cp "${LAUNCHPROF_HEADER:-include/launchprof.h}" "$REPO/include/"
cat >"$REPO/prog.c" <<'C'
#define LAUNCHPROF_IMPLEMENTATION
#include "launchprof.h"
#include "work.h"

static volatile unsigned long sink;

/* Deterministic work: n steps of a linear congruential generator. */
static void work(unsigned long n) {
    unsigned long x = 1;
    for (unsigned long i = 0; i < n; i++) x = x * 6364136223846793005UL + i;
    sink = x;
}

int main(void) {
    lp_begin("loading config");
    work(LOADING_STEPS);
    lp_end("loading config");
    lp_begin("drawing");
    work(DRAWING_STEPS);
    lp_end("drawing");
    lp_done();
    return 0;
}
C
steps() { printf '#define LOADING_STEPS %dUL\n#define DRAWING_STEPS %dUL\n' "$1" "$2" >"$REPO/work.h"; }
echo "# demo" >"$REPO/README.md"
git_() { git -C "$REPO" -c user.name=test -c user.email=test@invalid -c commit.gpgsign=false "$@"; }
git_ init --quiet -b main
steps 1000000 1000000
git_ add -A && git_ commit --quiet -m base
BASE=$(git_ rev-parse HEAD)
steps 1000000 1030000
git_ commit --quiet -am "drawing 3% slower"
SLOWER=$(git_ rev-parse HEAD)
echo "A sentence." >>"$REPO/README.md"
git_ commit --quiet -am "neutral: README"
NEUTRAL=$(git_ rev-parse HEAD)
git_ checkout --quiet -b much-slower "$BASE"
steps 1000000 20000000
git_ commit --quiet -am "drawing 20 times longer"
MUCH_SLOWER=$(git_ rev-parse HEAD)

# Runs the script as the action does, in the repository checked out at $1, base $2; output in $WORK/out.
gate() {
  local head=$1 base=$2
  shift 2
  git_ checkout --quiet "$head"
  rm -rf "$WORK/out" "$WORK/summary.md"
  (cd "$REPO" && env LAUNCHPROF="$BIN" LAUNCHPROF_COMMAND=./prog LAUNCHPROF_BUILD='cc -O2 -pthread -Iinclude -o prog prog.c' \
    LAUNCHPROF_BASE_REF="$base" LAUNCHPROF_OUT="$WORK/out" GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$WORK/summary.md" "$@" \
    "$SCRIPT") >"$WORK/gate.log" 2>&1
}
expect_exit() {
  local want=$1 label=$2
  shift 2
  local status=0
  gate "$@" || status=$?
  [ "$status" = "$want" ] || { cat "$WORK/gate.log" >&2; fail "$label: exit $status, expected $want"; }
}

# Bad settings: exit 2 before any build.
expect_exit 2 "an unknown metric" "$NEUTRAL" "$BASE" LAUNCHPROF_METRIC=cycles
grep -q "'cycles' is not instructions or time" "$WORK/gate.log" || { cat "$WORK/gate.log" >&2; fail "no clear error for an unknown metric"; }
expect_exit 2 "a baseline that does not exist" "$NEUTRAL" no-such-ref LAUNCHPROF_METRIC=time
grep -q "'no-such-ref'" "$WORK/gate.log" || { cat "$WORK/gate.log" >&2; fail "no clear error for a missing baseline"; }
[ ! -e "$REPO/prog" ] || fail "the program was built although the settings were wrong"
echo "ci: OK: bad settings (metric, baseline) exit 2 before any build, naming the setting"

# A regression: exit 1, drawing named on stdout, in an annotation and in the one step summary.
expect_regression() {
  local label=$1
  shift
  expect_exit 1 "$label" "$@"
  grep -q "drawing" "$WORK/gate.log" || { cat "$WORK/gate.log" >&2; fail "$label: the output does not name the drawing phase"; }
  grep -q "^::error title=Launch regression.*drawing" "$WORK/gate.log" || { cat "$WORK/gate.log" >&2; fail "$label: no ::error annotation for drawing"; }
  [ "$(grep -c '^### ' "$WORK/summary.md")" = 1 ] || { cat "$WORK/summary.md" >&2; fail "$label: the step summary is not written once"; }
  grep -q "drawing" "$WORK/summary.md" || { cat "$WORK/summary.md" >&2; fail "$label: the step summary does not show drawing"; }
  for file in base.json head.json summary.md junit.xml; do [ -s "$WORK/out/$file" ] || fail "$label: $file was not written"; done
  [ "$(git -C "$REPO" worktree list | wc -l)" = 1 ] || fail "$label: the base worktree was left behind"
}

if grep -q -- --metric <<<"$("$BIN" exec --help)"; then
  expect_regression "instructions: drawing 3% slower" "$SLOWER" "$BASE"
  if grep "^::error" "$WORK/gate.log" | grep -q "loading config"; then cat "$WORK/gate.log" >&2; fail "instructions: loading config, unchanged, was reported"; fi
  expect_exit 0 "instructions: a README change" "$NEUTRAL" "$SLOWER"
  echo "ci: OK: instructions: a 3% slower phase fails (exit 1) naming drawing, annotated, one summary; a neutral commit passes"
else
  echo "ci: the instruction gate is skipped: this launchprof has no 'exec --metric' (the instruction count of programs, branch progins); it runs once that is merged"
  expect_exit 2 "instructions without exec --metric" "$SLOWER" "$BASE"
  grep -q "has no 'exec --metric'" "$WORK/gate.log" || { cat "$WORK/gate.log" >&2; fail "no clear error when exec cannot count instructions"; }
fi

# Time on a machine shared with other jobs: only changes far above its noise are asserted (the base and
# the head are measured one after the other, so a change of load between them counts).
expect_regression "time: drawing 20 times longer" "$MUCH_SLOWER" "$BASE" LAUNCHPROF_METRIC=time
expect_exit 0 "time: a README change at 50% and 50 ms" "$NEUTRAL" "$SLOWER" LAUNCHPROF_METRIC=time LAUNCHPROF_THRESHOLD=50 \
  LAUNCHPROF_CHECK_ARGS="--min-change 0.05"
echo "ci: OK: time: a phase 20 times longer (+25 ms) fails naming drawing, annotated, one summary; a neutral commit passes at 50% and 50 ms"
