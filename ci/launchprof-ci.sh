#!/usr/bin/env bash
# Gates a change of any git repository on its program's launch (docs/ci.md): builds and profiles the
# base revision in a temporary git worktree, builds and profiles the checkout as it is (the head), then
# `launchprof check --result head.json --baseline base.json`. What the composite GitHub Action
# (action.yml) runs, and what any other CI can run as it is.
#
# Settings (environment variables; the action's inputs set them):
#   LAUNCHPROF_COMMAND    required: the command to profile, run from the repository's root; split into
#                         words as the shell does (quotes, variables) and run without a shell (use
#                         `sh -c '…'` for a pipeline)
#   LAUNCHPROF_BUILD      shell command that builds the program, run in each checkout first (default: none)
#   LAUNCHPROF_METRIC     instructions (default: per-phase instruction counts under Valgrind, deterministic)
#                         or time (wall clock: noisy on shared CI machines)
#   LAUNCHPROF_THRESHOLD  smallest relative change that fails, in percent (default: launchprof's, 1% for
#                         instructions and 5% for time)
#   LAUNCHPROF_BASE_REF   the baseline revision (default: origin/$GITHUB_BASE_REF on a GitHub pull request,
#                         origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME on a GitLab merge request, else HEAD~1);
#                         fetched from origin when the clone does not have it
#   LAUNCHPROF_RUNS       runs per side (default: launchprof exec's, 2 for instructions, 10 for time)
#   LAUNCHPROF_EXEC_ARGS  more `launchprof exec` options, split as the command is (e.g. --expect-phase drawing)
#   LAUNCHPROF_CHECK_ARGS more `launchprof check` options, split the same way (e.g. --min-change 0.005
#                         --phase-threshold drawing=10)
#   LAUNCHPROF            the launchprof binary (default: launchprof on PATH)
#   LAUNCHPROF_OUT        directory for base.json, head.json, summary.md, junit.xml (default: a new
#                         temporary directory, kept and printed)
# Exit status: 0 no regression, 1 a regression (check's verdict), 2 bad settings or a failed build or run.
# On GitHub Actions (GITHUB_ACTIONS=true) check writes ::error annotations; this script writes one step
# summary ($GITHUB_STEP_SUMMARY): what was compared, then check's table.
set -euo pipefail

fail() { echo "launchprof-ci: $*" >&2; exit 2; }

LAUNCHPROF=${LAUNCHPROF:-launchprof}
METRIC=${LAUNCHPROF_METRIC:-instructions}
COMMAND=${LAUNCHPROF_COMMAND:-}
BUILD=${LAUNCHPROF_BUILD:-}

# --- settings, all checked before anything is built ---------------------------------------------
[ -n "$COMMAND" ] || fail "LAUNCHPROF_COMMAND (the action's input 'command') is empty: give the command to profile"
case $METRIC in
  instructions | time) ;;
  *) fail "LAUNCHPROF_METRIC (input 'metric'): '$METRIC' is not instructions or time" ;;
esac
RUNS=${LAUNCHPROF_RUNS:-}
[ -z "$RUNS" ] || [[ $RUNS =~ ^[1-9][0-9]{0,3}$ ]] || fail "LAUNCHPROF_RUNS (input 'runs'): '$RUNS' is not a whole number from 1 to 9999"
THRESHOLD=${LAUNCHPROF_THRESHOLD:-}
THRESHOLD=${THRESHOLD%\%}
[ -z "$THRESHOLD" ] || [[ $THRESHOLD =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "LAUNCHPROF_THRESHOLD (input 'threshold'): '$THRESHOLD' is not a percentage such as 1 or 2.5"
if [[ $LAUNCHPROF != */* ]]; then
  found=$(command -v "$LAUNCHPROF") || fail "LAUNCHPROF: '$LAUNCHPROF' is not on PATH (install launchprof: docs/install.md)"
  LAUNCHPROF=$found
fi
[ -x "$LAUNCHPROF" ] || fail "LAUNCHPROF: $LAUNCHPROF is not an executable file"
# `exec --metric` (a launchprof that counts a program's instructions); without it exec measures time.
EXEC_METRIC=()
EXEC_HELP=$("$LAUNCHPROF" exec --help 2>/dev/null) || fail "LAUNCHPROF: '$LAUNCHPROF exec --help' failed: is it launchprof?"
if grep -q -- '--metric' <<<"$EXEC_HELP"; then
  EXEC_METRIC=(--metric "$METRIC")
elif [ "$METRIC" = instructions ]; then
  fail "this launchprof ($LAUNCHPROF) has no 'exec --metric': it cannot count a program's instructions (use metric time, or a newer launchprof)"
fi
# Words of the command and of the extra options, split as the shell would, not run.
eval "COMMAND_WORDS=($COMMAND)" || fail "LAUNCHPROF_COMMAND: cannot split '$COMMAND' into words"
[ ${#COMMAND_WORDS[@]} -gt 0 ] || fail "LAUNCHPROF_COMMAND: '$COMMAND' has no words"
eval "EXEC_ARGS=(${LAUNCHPROF_EXEC_ARGS:-})" || fail "LAUNCHPROF_EXEC_ARGS: cannot split '$LAUNCHPROF_EXEC_ARGS' into words"
eval "CHECK_ARGS=(${LAUNCHPROF_CHECK_ARGS:-})" || fail "LAUNCHPROF_CHECK_ARGS: cannot split '$LAUNCHPROF_CHECK_ARGS' into words"

ROOT=$(git rev-parse --show-toplevel 2>/dev/null) || fail "$(pwd) is not in a git repository"
cd "$ROOT"

# The baseline revision, fetched when a shallow clone does not have it.
if [ -n "${LAUNCHPROF_BASE_REF:-}" ]; then BASE_REF=$LAUNCHPROF_BASE_REF
elif [ -n "${GITHUB_BASE_REF:-}" ]; then BASE_REF=origin/$GITHUB_BASE_REF
elif [ -n "${CI_MERGE_REQUEST_TARGET_BRANCH_NAME:-}" ]; then BASE_REF=origin/$CI_MERGE_REQUEST_TARGET_BRANCH_NAME
else BASE_REF=HEAD~1; fi
resolve() { git rev-parse --verify --quiet "$1^{commit}"; }
if ! BASE=$(resolve "$BASE_REF"); then
  if git remote get-url origin >/dev/null 2>&1; then
    case $BASE_REF in
      HEAD~*) git fetch --quiet --no-tags --deepen="${BASE_REF#HEAD~}" origin >&2 || true ;;
      origin/*) git fetch --quiet --no-tags --depth=1 origin "+refs/heads/${BASE_REF#origin/}:refs/remotes/$BASE_REF" >&2 || true ;;
      *) git fetch --quiet --no-tags --depth=1 origin "$BASE_REF" >&2 && BASE_REF=FETCH_HEAD || true ;;
    esac
  fi
  BASE=$(resolve "$BASE_REF") || fail "the baseline revision '$BASE_REF' (LAUNCHPROF_BASE_REF, input 'base-ref') is not in this clone and could not be fetched (check out with fetch-depth: 0)"
fi
HEAD_SHA=$(git rev-parse HEAD)

OUT=${LAUNCHPROF_OUT:-$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/launchprof-ci.XXXXXX")}
mkdir -p "$OUT" || fail "LAUNCHPROF_OUT: cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
BASE_TREE=$OUT/base-worktree
git worktree remove --force "$BASE_TREE" >/dev/null 2>&1 || rm -rf "$BASE_TREE"
cleanup() { git -C "$ROOT" worktree remove --force "$BASE_TREE" >/dev/null 2>&1 || true; }
trap cleanup EXIT

# --- the two sides -------------------------------------------------------------------------------
# Builds the checkout in $1 and profiles the command there into $2.
profile() {
  local tree=$1 output=$2 label=$3
  if [ -n "$BUILD" ]; then
    echo "launchprof-ci: building the $label ($tree): $BUILD" >&2
    (cd "$tree" && bash -c "$BUILD") >&2 || fail "the build command failed on the $label (exit $?): $BUILD"
  fi
  local exec=(exec "${EXEC_METRIC[@]}" ${RUNS:+--runs "$RUNS"} "${EXEC_ARGS[@]}")
  echo "launchprof-ci: profiling the $label: launchprof ${exec[*]} -- ${COMMAND_WORDS[*]}" >&2
  (cd "$tree" && "$LAUNCHPROF" "${exec[@]}" --quiet --output "$output" -- "${COMMAND_WORDS[@]}") >/dev/null ||
    fail "launchprof exec failed on the $label (exit $?), see above"
}

git worktree add --quiet --detach "$BASE_TREE" "$BASE" >&2 || fail "cannot check out $BASE_REF ($BASE) in $BASE_TREE"
profile "$BASE_TREE" "$OUT/base.json" "base ($BASE_REF, ${BASE:0:12})"
cleanup
profile "$ROOT" "$OUT/head.json" "head (${HEAD_SHA:0:12})"

# --- the verdict ---------------------------------------------------------------------------------
# Run in OUT, so that the table's columns read base.json and head.json.
cd "$OUT"
CHECK=("$LAUNCHPROF" check --result head.json --baseline base.json)
[ -z "$THRESHOLD" ] || CHECK+=(--threshold "$THRESHOLD%")
if [ "$METRIC" = instructions ]; then CHECK+=(--metric instructions); fi
CHECK+=("${CHECK_ARGS[@]}")

# summary.md: what was compared, then check's markdown (its own heading replaced; made without GitHub's
# side effects).
{
  echo "### launchprof: \`${COMMAND}\` ($METRIC)"
  echo
  echo "Base \`$BASE_REF\` (${BASE:0:12}) against head ${HEAD_SHA:0:12}${RUNS:+, $RUNS runs each}${THRESHOLD:+, threshold $THRESHOLD%}."
  env -u GITHUB_ACTIONS "${CHECK[@]}" --format markdown --quiet 2>/dev/null | sed '1{/^### /d}' || true
  echo
} >"$OUT/summary.md"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$OUT/summary.md" >>"$GITHUB_STEP_SUMMARY"; fi

# The gate: text with the table, JUnit XML beside it; on GitHub, check's ::error annotations too.
status=0
env -u GITHUB_STEP_SUMMARY "${CHECK[@]}" --table --junit junit.xml || status=$?
echo "launchprof-ci: results in $OUT (base.json, head.json, summary.md, junit.xml)" >&2
exit "$status"
