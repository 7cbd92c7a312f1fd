#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""docs/design.md's layer table is true: every #include of one layer's files
from another's is a dependency the table declares (directly or through the
layers it names). Usage: layers_test.py SOURCE_DIR"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
design = (root / "docs/design.md").read_text()
section = design.split("## Layers", 1)[1].split("\n## ", 1)[0]
NAMES = {"base": "base", "model": "model", "modepages": "modepages", "sim": "sim", "host": "host",
         "apps": "apps"}
deps = {}
for row in re.finditer(r"^\|[^|]*\| `([a-z/]+)/` \| ([^|]*)\|$", section, re.M):
    layer, said = row.group(1), row.group(2)
    said = re.sub(r"\([^)]*\)", "", said).split(";")[0]
    names = [w.strip() for w in said.split(",") if w.strip() and w.strip() != "nothing"]
    deps[layer] = {NAMES.get(n, "target/" + n) for n in names if n != "libiscsi"}
unknown = {d for ds in deps.values() for d in ds if d not in deps}
assert not unknown, f"the table names layers it does not list: {sorted(unknown)}"


def closure(layer, seen=None):
    seen = set() if seen is None else seen
    for d in deps[layer]:
        if d not in seen:
            seen.add(d)
            closure(d, seen)
    return seen


INCLUDE = re.compile(r'^#include "([a-z]+(?:/[a-z]+)?)/[^"/]+\.h"', re.M)
bad = []
for layer in deps:
    allowed = closure(layer) | {layer}
    for f in sorted((root / layer).glob("*.*")):
        if f.suffix not in (".h", ".cc", ".c"):
            continue
        for inc in INCLUDE.findall(f.read_text()):
            if inc in deps and inc not in allowed:
                bad.append(f"{f.relative_to(root)} includes {inc}/, which the table does not "
                           f"let {layer}/ use")
print("\n".join(bad) if bad else f"{len(deps)} layers, every include as the table says")
sys.exit(1 if bad else 0)
