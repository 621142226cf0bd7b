#!/usr/bin/env bash
# Builds the Debian package of launchprof (make deb): `make install-files PREFIX=/usr` into a staging
# tree, a control file whose Depends come from the binaries' shared libraries (dpkg-shlibdeps, else
# ldd and dpkg -S), then dpkg-deb. Writes .build/deb/launchprof_VERSION_ARCH.deb and prints its path.
# VERSION: the package version (default: 0.0~gitDATE.COMMIT, or the tag of the commit).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v dpkg-deb >/dev/null || { echo "deb: dpkg-deb not found (apt-get install dpkg)" >&2; exit 2; }
ARCH=$(dpkg --print-architecture)
if [ -z "${VERSION:-}" ]; then
  if tag=$(git describe --tags --exact-match 2>/dev/null); then VERSION=${tag#v}
  else VERSION="0.0~git$(git log -1 --format=%cd --date=format:%Y%m%d).$(git rev-parse --short HEAD)"; fi
fi
case $VERSION in [0-9]*) ;; *) echo "deb: VERSION must start with a digit (got '$VERSION')" >&2; exit 2;; esac

OUT=.build/deb
STAGE=$OUT/launchprof_${VERSION}_$ARCH
rm -rf "$STAGE"
mkdir -p "$STAGE/DEBIAN"
make --no-print-directory install-files PREFIX=/usr DESTDIR="$PWD/$STAGE" >/dev/null
install -D -m 644 Packaging/copyright "$STAGE/usr/share/doc/launchprof/copyright"
ELVES=("$STAGE/usr/bin/launchprof" "$STAGE/usr/libexec/launchprof/launchprof-app" "$STAGE/usr/libexec/launchprof/launchprof-spawn")

# The packages of the shared libraries the binaries load.
shlib_depends() {
  if command -v dpkg-shlibdeps >/dev/null; then
    local scratch
    scratch=$(mktemp -d)
    mkdir -p "$scratch/debian"
    printf 'Source: launchprof\n\nPackage: launchprof\nArchitecture: any\n' >"$scratch/debian/control"
    local absolute=()
    for elf in "${ELVES[@]}"; do absolute+=("$PWD/$elf"); done
    (cd "$scratch" && dpkg-shlibdeps -O "${absolute[@]}" 2>/dev/null) | sed -n 's/^shlibs:Depends=//p'
    rm -rf "$scratch"
  else
    ldd "${ELVES[@]}" 2>/dev/null | awk '/=> \//{print $3}' | sort -u | xargs -r dpkg -S 2>/dev/null |
      cut -d: -f1 | sort -u | paste -sd, | sed 's/,/, /g'
  fi
}
DEPENDS=$(shlib_depends)
[ -n "$DEPENDS" ] || { echo "deb: could not work out the shared libraries' packages" >&2; exit 1; }
SIZE=$(du -sk "$STAGE/usr" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@DEPENDS@/$DEPENDS/" -e "s/@SIZE@/$SIZE/" \
  Packaging/control.in >"$STAGE/DEBIAN/control"
dpkg-deb --root-owner-group -Zxz --build "$STAGE" "$OUT/launchprof_${VERSION}_$ARCH.deb" >/dev/null
rm -rf "$STAGE"
echo "$OUT/launchprof_${VERSION}_$ARCH.deb"
echo "  Depends: $DEPENDS" >&2
