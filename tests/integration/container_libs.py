#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The libraries a container image's binary needs are in its run stage.

Usage: container_libs.py DOCKERFILE BINARY

For BINARY (the program or handler the Dockerfile's run stage copies in),
every shared library it needs (ldd) must come from a Debian package that the
run stage installs, from a dependency of one (Depends and Pre-Depends, to
any depth), or from the slim base image itself (its essential packages and
what apt needs). A library missing from the list would make the image fail
at start, and no container engine runs here to find out. Exits 1 naming the
library and its package.
"""
import re
import subprocess
import sys


def run(*cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def run_stage_packages(dockerfile):
    """The packages of the last stage's apt-get install lines."""
    text = open(dockerfile).read().replace("\\\n", " ")
    last = text.split("\nFROM ")[-1]
    pkgs = set()
    for m in re.finditer(r"apt-get install ([^&\n]*)", last):
        pkgs.update(w for w in m.group(1).split() if not w.startswith("-"))
    return pkgs


def closure(roots):
    """The packages `roots` depend on, to any depth (Depends, Pre-Depends)."""
    if not roots:
        return set()
    out = run("apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests",
              "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances", *sorted(roots))
    pkgs = set(roots)
    for line in out.splitlines():
        line = line.strip()
        m = re.match(r"(?:\|)?(?:Pre)?Depends: <?([^<> ]+)>?", line)
        if m:
            pkgs.add(m.group(1).split(":")[0])
        elif line and not line.startswith(("|", "Depends", "PreDepends")) and " " not in line:
            pkgs.add(line.split(":")[0])
    return pkgs


def base_image():
    """What debian:*-slim holds: the essential packages and apt's dependencies."""
    out = run("dpkg-query", "-Wf", "${Package} ${Essential}\n")
    essential = {l.split()[0] for l in out.splitlines() if l.endswith(" yes")}
    return closure(essential | {"apt"})


def needed_packages(binary):
    """(library, package) for each shared library `binary` needs."""
    pairs = []
    for line in run("ldd", binary).splitlines():
        m = re.match(r"\s*(\S+) => (\S+)", line)
        if not m or not m.group(2).startswith("/"):
            continue
        # A sanitizer build's runtime (scripts/tsan): the images build without it.
        if re.match(r"lib(t|a|ub|l)san\.so", m.group(1)):
            continue
        # With merged /usr, dpkg may record the file under /lib or /usr/lib.
        path = m.group(2)
        tries = [path, path.replace("/usr/lib/", "/lib/", 1), path.replace("/lib/", "/usr/lib/", 1)]
        for p in tries:
            owner = subprocess.run(["dpkg", "-S", p], capture_output=True, text=True)
            if owner.returncode == 0:
                break
        if owner.returncode != 0:
            sys.exit(f"{binary}: {m.group(1)} ({m.group(2)}) belongs to no Debian package")
        pairs.append((m.group(1), owner.stdout.split(":")[0]))
    return pairs


def main():
    dockerfile, binary = sys.argv[1], sys.argv[2]
    listed = run_stage_packages(dockerfile)
    if not listed:
        sys.exit(f"{dockerfile}: no apt-get install in the run stage")
    available = closure(listed) | base_image()
    missing = [(lib, pkg) for lib, pkg in needed_packages(binary) if pkg not in available]
    for lib, pkg in missing:
        print(f"{dockerfile}: {binary} needs {lib} from package {pkg}, which the run stage "
              f"does not install (add {pkg} to its apt-get install line)")
    if missing:
        sys.exit(1)
    print(f"{dockerfile}: every library of {binary.rsplit('/', 1)[-1]} is in the image")


if __name__ == "__main__":
    main()
