#!/usr/bin/env python3
"""Writes launchprof(1), a man page in roff, from `launchprof --experimental-dump-help` on stdin.

swift-argument-parser's generate-manual plugin needs a second build of the tool; this reads the same
description (ArgumentParserToolInfo, serialization version 0) straight from the built binary:
one page, a section per subcommand with its options.

    launchprof --experimental-dump-help | python3 Packaging/manpage.py > launchprof.1
"""
import json
import sys


def roff(text):
    """Escapes text for roff: backslashes, hyphens, non-ASCII characters, a leading dot or apostrophe."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    # Non-ASCII characters as groff's Unicode escapes (\[u2026] for …): no preprocessor needed.
    text = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in text)
    lines = []
    for line in text.split("\n"):
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def paragraphs(text):
    """Help text as roff: blank-line separated paragraphs, and indented lines (examples) kept as they are."""
    out = []
    for block in text.strip("\n").split("\n\n"):
        lines = [line for line in block.split("\n")]
        if not any(line.strip() for line in lines):
            continue
        out.append(".PP")
        i = 0
        while i < len(lines):
            if lines[i].startswith("  "):
                j = i
                while j < len(lines) and (lines[j].startswith("  ") or not lines[j].strip()):
                    j += 1
                out += [".nf", ".RS 4", roff("\n".join(line[2:] for line in lines[i:j])), ".RE", ".fi"]
            else:
                j = i
                while j < len(lines) and not lines[j].startswith("  "):
                    j += 1
                out.append(roff("\n".join(lines[i:j])))
            i = j
    return out


def spelled(name):
    return ("--" if name["kind"] == "long" else "-") + name["name"]


def argument_lines(argument):
    names = argument.get("names") or []
    value = argument.get("valueName") or "value"
    if argument["kind"] == "positional":
        head = f"\\fI{roff(value)}\\fR"
    else:
        head = ", ".join(f"\\fB{roff(spelled(n))}\\fR" for n in names)
        if argument["kind"] == "option":
            head += f" \\fI{roff(value)}\\fR"
    if argument.get("isRepeating"):
        head += " ..."
    text = argument.get("abstract") or ""
    if argument.get("discussion"):
        text += "\n\n" + argument["discussion"]
    if argument.get("allValues"):
        text += "\n\nValues: " + ", ".join(argument["allValues"]) + "."
    if argument.get("defaultValue") not in (None, ""):
        text += f"\n\nDefault: {argument['defaultValue']}."
    body = [".TP", head]
    rest = paragraphs(text)
    if rest and rest[0] == ".PP":
        rest = rest[1:]
    return body + [line if line != ".PP" else ".IP" for line in rest]


def command_lines(command, path, level):
    shown = [a for a in command.get("arguments") or [] if a.get("shouldDisplay", True)]
    out = []
    name = " ".join(path)
    if level == 0:
        out += [".SH NAME", f"{roff(name)} \\- {roff(command.get('abstract') or '')}", ".SH SYNOPSIS", f".B {roff(name)}",
                "\\fIsubcommand\\fR [\\fIoptions\\fR]", ".SH DESCRIPTION"]
        out += paragraphs(command.get("discussion") or command.get("abstract") or "")
        if shown:
            out += [".SH OPTIONS"]
    else:
        out += [f".SH \"{roff(name.upper())}\"" if level == 1 else f".SS \"{roff(name)}\""]
        out += paragraphs((command.get("abstract") or "") + "\n\n" + (command.get("discussion") or ""))
    for argument in shown:
        out += argument_lines(argument)
    for sub in command.get("subcommands") or []:
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            out += command_lines(sub, path + [sub["commandName"]], level + 1)
    return out


def main():
    try:
        info = json.load(sys.stdin)
        command = info["command"]
    except (ValueError, KeyError) as error:
        sys.exit(f"manpage.py: stdin is not launchprof --experimental-dump-help output: {error}")
    if info.get("serializationVersion") != 0:
        sys.exit(f"manpage.py: unknown serializationVersion {info.get('serializationVersion')} (this reads 0)")
    lines = ['.TH LAUNCHPROF 1 "" "launchprof" "User Commands"']
    lines += command_lines(command, [command["commandName"]], 0)
    lines += [".SH FILES", ".TP", "\\fIPREFIX\\fB/libexec/launchprof/\\fR",
              "launchprof\\-app (the built-in app) and launchprof\\-spawn (what exec spawns each program through), found from launchprof's own path.",
              ".TP", "\\fIPREFIX\\fB/share/launchprof/\\fR", "the built\\-in app's fixtures and the Python client.",
              ".SH SEE ALSO", "valgrind(1), hyperfine(1); docs/ in the launchprof repository."]
    sys.stdout.write("\n".join(lines) + "\n")


main()
