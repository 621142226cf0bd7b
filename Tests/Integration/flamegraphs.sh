#!/usr/bin/env bash
# Flame graphs (docs/flame-graphs.md): a --functions result of the default launch and one with more work
# in Canvas.fillRoundedRect (test.slowFunction); the SVG flame graph and the differential one rendered in
# headless Chromium and checked from the page (flamegraph_check.py); the speedscope file validated
# against speedscope's published schema. Run by Tests/Integration/run.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$(realpath "${LAUNCHPROF:-.build/debug/launchprof}")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
command -v valgrind >/dev/null || { echo "flamegraph: skipped: valgrind is not installed (make setup)"; exit 0; }

cp -r Fixtures/default "$WORK/app"
rm -f "$WORK"/app/Loading.png*
python3 - "$WORK/app/manifest.json" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
manifest["test"] = {"slowFunction": {"function": "fillRoundedRect", "iterations": 40000}}
json.dump(manifest, open(sys.argv[1] + ".slow.json", "w"))
PY
mv "$WORK/app/manifest.json.slow.json" "$WORK/app/slow.json"
export SWIFT_DETERMINISTIC_HASHING=1
"$BIN" run --metric instructions --functions --runs 1 --warmup 0 --quiet --manifest "$WORK/app/manifest.json" --output "$WORK/base.json" >/dev/null
"$BIN" run --metric instructions --functions --runs 1 --warmup 0 --quiet --manifest "$WORK/app/slow.json" --output "$WORK/slow.json" >/dev/null
"$BIN" report "$WORK/base.json" --flame-graph svg --output "$WORK/flame.svg"
"$BIN" diff "$WORK/base.json" "$WORK/slow.json" --flame-graph svg >"$WORK/diff.svg"
"$BIN" report "$WORK/base.json" --flame-graph speedscope --output "$WORK/base.speedscope.json"
python3 - "$WORK/base.speedscope.json" <<'PY'
import json, sys, jsonschema
schema = json.load(open("Tests/LaunchFlameGraphsTests/Fixtures/speedscope-file-format-schema.json"))
jsonschema.Draft6Validator(schema).validate(json.load(open(sys.argv[1])))
print("speedscope: OK: the profile validates against speedscope's published file-format schema")
PY
python3 Tests/Integration/flamegraph_check.py "$WORK/flame.svg" "$WORK/diff.svg"
