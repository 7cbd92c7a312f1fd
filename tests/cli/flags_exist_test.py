#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every option a message names exists: each `--flag` in a string literal
of the programs' sources (errors, suggestions, help) is an option that one
of the programs takes, as its --help (and each subcommand's) lists them.
A message that tells a user to run `memstored --blocks N` fails here.

Usage: flags_exist_test.py SOURCE_DIR PROGRAM...
"""
import pathlib
import re
import subprocess
import sys

# Options of other tools that messages name on purpose: none yet. A flag
# here must say whose it is.
OTHER_TOOLS = {}

LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')
FLAG = re.compile(r"--[a-z][a-z0-9-]+")
SOURCES = ["target", "sim", "host", "model", "modepages", "apps", "version"]


def help_text(program, words):
    out = subprocess.run([program, *words, "--help"], capture_output=True, text=True,
                         timeout=30)
    return out.stdout + out.stderr


def subcommands(text):
    names, inside = [], False
    for line in text.splitlines():
        if re.match(r"^(Subcommands|SUBCOMMANDS):", line):
            inside = True
        elif inside and not line.strip():
            inside = False
        elif inside and re.match(r"^  [a-z]", line):
            names.append(line.split()[0])
    return names


def known_flags(programs):
    known = set()
    for program in programs:
        pending = [[]]
        while pending:
            words = pending.pop()
            text = help_text(program, words)
            known |= set(FLAG.findall(text))
            pending += [words + [s] for s in subcommands(text)]
    return known


def main():
    src = pathlib.Path(sys.argv[1])
    known = known_flags(sys.argv[2:])
    if len(known) < 50:
        print(f"FAIL: only {len(known)} options read from the programs' --help")
        return 1
    unknown = []
    for folder in SOURCES:
        for path in sorted((src / folder).rglob("*")):
            if path.suffix not in (".cc", ".h", ".c"):
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if line.lstrip().startswith("//"):
                    continue
                for literal in LITERAL.findall(line):
                    for flag in FLAG.findall(literal):
                        if flag not in known and flag not in OTHER_TOOLS:
                            unknown.append(f"{path.relative_to(src)}:{number}: {flag} in {literal}")
    for u in unknown:
        print("FAIL: no program takes", u)
    print(f"{len(known)} options known; {len(unknown)} named that none takes")
    return 1 if unknown else 0


if __name__ == "__main__":
    sys.exit(main())
