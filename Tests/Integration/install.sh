#!/usr/bin/env bash
# `make install` (docs/install.md) into a temporary prefix, then the prefix moved: launchprof finds its
# helpers and the built-in app's fixtures from its own path, whatever the working directory or a
# symbolic link to it, and saves the app's snapshot in ~/.cache, not in the prefix; it loads no Swift
# library of the toolchain; a missing helper is an error naming
# where it looked; the header, the Python client, the completions and the man page are installed and
# usable; `make uninstall` removes every file. Installs the build LAUNCHPROF belongs to (the debug
# build by default: no release build needed).
# Run by Tests/Integration/run.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${LAUNCHPROF:-.build/debug/launchprof}
FROM=$(dirname "$BIN")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "install: FAILED: $*" >&2; exit 1; }

make -s --no-print-directory install-files INSTALL_FROM="$FROM" PREFIX="$WORK/lp" >"$WORK/make.log" 2>&1 || { cat "$WORK/make.log" >&2; fail "make install-files PREFIX=$WORK/lp"; }
for file in bin/launchprof libexec/launchprof/launchprof-app libexec/launchprof/launchprof-spawn include/launchprof.h \
            share/launchprof/python/launchprof.py share/launchprof/Fixtures/default/manifest.json share/man/man1/launchprof.1 \
            share/bash-completion/completions/launchprof share/zsh/site-functions/_launchprof share/fish/vendor_completions.d/launchprof.fish; do
  [ -s "$WORK/lp/$file" ] || fail "make install did not install $file"
done
if ldd "$WORK/lp/bin/launchprof" | grep -E "libswift|libFoundation|lib_Foundation|libdispatch"; then
  fail "the installed launchprof loads the toolchain's libraries above (it should link them statically)"
fi

# Runs the installed launchprof at $1 from an unrelated directory: exec of /bin/true and the built-in app.
runs_from_elsewhere() {
  local launchprof=$1 label=$2
  mkdir -p "$WORK/elsewhere"
  (cd "$WORK/elsewhere" && "$launchprof" exec --runs 2 --warmup 0 --quiet --output exec.json -- /bin/true) >"$WORK/run.log" 2>&1 ||
    { cat "$WORK/run.log" >&2; fail "$label: launchprof exec -- /bin/true"; }
  (cd "$WORK/elsewhere" && env -u XDG_CACHE_HOME HOME="$WORK/home" "$launchprof" run --runs 1 --warmup 0 --quiet --output run.json) >"$WORK/run.log" 2>&1 ||
    { cat "$WORK/run.log" >&2; fail "$label: launchprof run (the installed fixtures)"; }
  [ -s "$WORK/elsewhere/exec.json" ] && [ -s "$WORK/elsewhere/run.json" ] || fail "$label: no results written"
  # The built-in app's snapshot goes to the user's cache, never into the installed data.
  [ -s "$WORK/home/.cache/launchprof/default/Loading.png" ] || fail "$label: run saved no snapshot in ~/.cache/launchprof/default"
  if find "$WORK" -path '*/share/launchprof/*' -name 'Loading.png*' | grep .; then fail "$label: run wrote the files above into the installed data"; fi
  rm -rf "$WORK/elsewhere"
}
runs_from_elsewhere "$WORK/lp/bin/launchprof" "installed"
mv "$WORK/lp" "$WORK/moved"
runs_from_elsewhere "$WORK/moved/bin/launchprof" "moved prefix"
mkdir -p "$WORK/links"
ln -s "$WORK/moved/bin/launchprof" "$WORK/links/launchprof"
runs_from_elsewhere "$WORK/links/launchprof" "symbolic link"
echo "install: OK: the installed launchprof runs exec and run from another directory, moved and through a symbolic link; it loads no toolchain library"

# A missing helper: exit 2, naming the places looked in.
mv "$WORK/moved/libexec/launchprof/launchprof-spawn" "$WORK/spawn.away"
status=0
"$WORK/moved/bin/launchprof" exec --runs 1 -- /bin/true >"$WORK/run.log" 2>&1 || status=$?
[ "$status" = 2 ] || { cat "$WORK/run.log" >&2; fail "a missing launchprof-spawn: exit $status, expected 2"; }
grep -qF "$WORK/moved/libexec/launchprof/launchprof-spawn" "$WORK/run.log" && grep -qF "$WORK/moved/bin/launchprof-spawn" "$WORK/run.log" ||
  { cat "$WORK/run.log" >&2; fail "the error for a missing launchprof-spawn does not name both places looked in"; }
mv "$WORK/spawn.away" "$WORK/moved/libexec/launchprof/launchprof-spawn"
echo "install: OK: a missing helper exits 2 naming where launchprof looked"

# The clients and the documentation as installed.
if command -v "${CC:-cc}" >/dev/null; then
  "${CC:-cc}" -O2 -pthread -I"$WORK/moved/include" -o "$WORK/keypad" Examples/c/keypad.c || fail "Examples/c/keypad.c does not build against the installed header"
fi
PYTHONPATH="$WORK/moved/share/launchprof/python" python3 -c "import launchprof" || fail "the installed Python client does not import"
bash -n "$WORK/moved/share/bash-completion/completions/launchprof" || fail "the bash completion script does not parse"
grep -q "exec" "$WORK/moved/share/zsh/site-functions/_launchprof" && grep -q "exec" "$WORK/moved/share/fish/vendor_completions.d/launchprof.fish" ||
  fail "the zsh or fish completion does not complete exec"
grep -q '^\.TH LAUNCHPROF 1' "$WORK/moved/share/man/man1/launchprof.1" && grep -q '^\.SH "LAUNCHPROF EXEC"' "$WORK/moved/share/man/man1/launchprof.1" ||
  fail "the man page has no title or no exec section"
if command -v groff >/dev/null; then
  groff -man -Tutf8 -ww -z "$WORK/moved/share/man/man1/launchprof.1" 2>"$WORK/groff.log"
  [ ! -s "$WORK/groff.log" ] || { cat "$WORK/groff.log" >&2; fail "groff warns about the man page"; }
fi
echo "install: OK: the installed header builds the C example, the Python client imports, the completions and the man page are there"

make -s --no-print-directory uninstall PREFIX="$WORK/moved" >/dev/null
left=$(find "$WORK/moved" -type f)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "install: OK: make uninstall removes every installed file"
