#!/bin/sh
# keypad.sh: loads a keypad from a config file (Examples/keypad.conf), lays its keys out on a grid
# and draws it as text, reporting each phase to launchprof by writing protocol lines to the
# descriptor LAUNCHPROF_FD names (docs/protocol.md). Times are `-`: launchprof stamps each line when
# it reads it. Without LAUNCHPROF_FD it just runs.
#
#     launchprof exec -- Examples/shell/keypad.sh Examples/keypad.conf
#
# A POSIX shell redirects to descriptors 0-9 only (launchprof exec uses 3). Each line is one printf,
# so one short write. Names with a backslash, newline, carriage return or tab would need escaping
# (\\, \n, \r, \t); these need none.
set -euf  # -f: no globbing, a key may be labelled *

lp_fd=
case ${LAUNCHPROF_FD:-} in
  [0-9]) lp_fd=$LAUNCHPROF_FD ;;
esac
unset LAUNCHPROF_FD  # the programs this script starts do not report into the same pipe

lp() {
  if [ -n "$lp_fd" ]; then printf '%s\n' "$*" >&"$lp_fd"; fi
}

if [ $# -ne 1 ]; then
  echo "usage: keypad.sh CONFIG" >&2
  exit 2
fi
config=$1

lp "launchprof 1"
lp "main -"

lp "begin - 0 io loading config"
lp "begin - 0 io reading file"
if ! text=$(cat -- "$config"); then
  echo "keypad.sh: cannot read $config" >&2
  exit 1
fi
lp "end - 0 reading file"

lp "begin - 0 cpu parsing"
title= width=0 rows=0 columns=0 number=0
# The rows, one per line, labels separated by spaces.
keys=
while IFS= read -r line || [ -n "$line" ]; do
  number=$((number + 1))
  line=$(printf '%s' "$line" | tr -d '\r')
  case $line in '' | '#'*) continue ;; esac
  case $line in
    *=*) ;;
    *) echo "keypad.sh: $config:$number: expected 'key = value'" >&2; exit 1 ;;
  esac
  key=$(printf '%s' "${line%%=*}" | tr -d ' \t')
  value=$(printf '%s' "${line#*=}" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
  case $key in
    title) title=$value ;;
    width)
      case $value in '' | *[!0-9]*) value=0 ;; esac
      if [ "$value" -lt 8 ] || [ "$value" -gt 198 ]; then
        echo "keypad.sh: $config:$number: width must be 8 to 198" >&2; exit 1
      fi
      width=$value ;;
    row)
      set -- $value
      if [ "$rows" -gt 0 ] && [ $# -ne "$columns" ]; then
        echo "keypad.sh: $config:$number: every row needs $columns keys" >&2; exit 1
      fi
      columns=$# rows=$((rows + 1))
      keys="$keys$value
" ;;
    *) echo "keypad.sh: $config:$number: unknown key '$key'" >&2; exit 1 ;;
  esac
done <<END
$text
END
if [ "$width" -eq 0 ] || [ "$rows" -eq 0 ]; then
  echo "keypad.sh: $config: needs a width and at least one row" >&2
  exit 1
fi
lp "end - 0 parsing"
lp "end - 0 loading config"

# Each key's inner width: the columns share the width, one border between keys.
lp "begin - 0 cpu laying out keys"
inner=$(( (width - 1) / columns - 1 ))
[ "$inner" -ge 1 ] || inner=1
total=$((columns * (inner + 1) + 1))
lp "end - 0 laying out keys"
lp "count $((rows * columns)) keys laid out"

lp "begin - 0 draw drawing"
repeat() { printf "%${2}s" '' | tr ' ' "$1"; }
rule=$(c=0; while [ $c -lt "$columns" ]; do printf '+%s' "$(repeat - "$inner")"; c=$((c + 1)); done; printf '+')
frame=$(
  printf '+%s+\n' "$(repeat - $((total - 2)))"
  title=$(printf '%.*s' $((total - 2)) "$title")
  pad=$(( (total - 2 - ${#title}) / 2 ))
  printf '|%*s%s%*s|\n' "$pad" '' "$title" $((total - 2 - ${#title} - pad)) ''
  printf '%s\n' "$rule"
  printf '%s' "$keys" | while IFS= read -r row; do
    for label in $row; do
      label=$(printf '%.*s' "$inner" "$label")
      left=$(( (inner - ${#label}) / 2 ))
      printf '|%*s%s%*s' "$left" '' "$label" $((inner - ${#label} - left)) ''
    done
    printf '|\n%s\n' "$rule"
  done
)
printf '%s\n' "$frame"
lp "mark - 0 first frame"
lp "end - 0 drawing"

lp "mark - 0 interactive"
lp "done -"
