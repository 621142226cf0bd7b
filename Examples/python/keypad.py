#!/usr/bin/env python3
"""keypad: loads a keypad from a config file (Examples/keypad.conf), lays its keys out on a grid and
draws it as text, reporting each phase to launchprof through clients/python/launchprof.py. Without
LAUNCHPROF_FD it just runs.

    launchprof exec -- python3 Examples/python/keypad.py Examples/keypad.conf
"""
import os
import sys

# The client is one file: copy it beside your program, or put its directory on the path as here.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
import launchprof  # noqa: E402  (first: the import's reading is the `main` line)


class ConfigError(Exception):
    pass


@launchprof.phase("reading file", kind="io")
def read_file(path):
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as error:
        raise ConfigError(f"cannot read {path}: {error.strerror}") from None


@launchprof.phase("parsing", kind="cpu")
def parse(text, path):
    """`key = value` lines; an error names the line."""
    title, width, rows = "", 0, []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.strip(" \t\r")
        if not line or line.startswith("#"):
            continue
        key, equals, value = (part.strip(" \t") for part in line.partition("="))
        if not equals:
            raise ConfigError(f"{path}:{number}: expected 'key = value'")
        if key == "title":
            title = value
        elif key == "width":
            if not value.isdigit() or not 8 <= int(value) <= 198:
                raise ConfigError(f"{path}:{number}: width must be 8 to 198")
            width = int(value)
        elif key == "row":
            labels = value.split()
            if rows and len(labels) != len(rows[0]):
                raise ConfigError(f"{path}:{number}: every row needs {len(rows[0])} keys")
            rows.append(labels)
        else:
            raise ConfigError(f"{path}:{number}: unknown key '{key}'")
    if not width or not rows:
        raise ConfigError(f"{path}: needs a width and at least one row")
    return title, width, rows


def lay_out(width, columns):
    """Each key's left edge and the keys' inner width: the columns share the width, one border between keys."""
    inner = max(1, (width - 1) // columns - 1)
    return [column * (inner + 1) for column in range(columns)], inner


def draw(title, rows, left, inner):
    columns = len(left)
    total = columns * (inner + 1) + 1
    rule = ("+" + "-" * inner) * columns + "+\n"
    out = ["+" + "-" * (total - 2) + "+\n", "|" + title[: total - 2].center(total - 2) + "|\n", rule]
    for row in rows:
        line = [" "] * total
        for column, label in enumerate(row):
            line[left[column]] = "|"
            shown = label[:inner]
            at = left[column] + 1 + (inner - len(shown)) // 2
            line[at : at + len(shown)] = shown
        line[total - 1] = "|"
        out += ["".join(line) + "\n", rule]
    return "".join(out)


def main(arguments):
    if len(arguments) != 1:
        print("usage: keypad.py CONFIG", file=sys.stderr)
        return 2
    path = arguments[0]
    try:
        with launchprof.phase("loading config", kind="io"):
            title, width, rows = parse(read_file(path), path)
    except ConfigError as error:
        print(f"keypad.py: {error}", file=sys.stderr)
        return 1
    with launchprof.phase("laying out keys", kind="cpu"):
        left, inner = lay_out(width, len(rows[0]))
    launchprof.count(len(rows) * len(left), "keys laid out")
    with launchprof.phase("drawing", kind="draw"):
        sys.stdout.write(draw(title, rows, left, inner))
        sys.stdout.flush()
        launchprof.mark("first frame")
    launchprof.mark("interactive")
    launchprof.done()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
