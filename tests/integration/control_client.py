# SPDX-License-Identifier: Apache-2.0
"""What the control-socket tests share: memsctl admin run and its reply
parsed, and a list of checks that prints each and counts the failures."""
import json
import subprocess


def admin(memsctl, sock, *args, fail=False, raw=False):
    """memsctl admin ARGS: its JSON reply (raw: its text); with fail, its error text,
    and an AssertionError when it did not fail."""
    out = subprocess.run([memsctl, "admin", "--socket", sock, *args], capture_output=True,
                         text=True, timeout=30)
    if (out.returncode != 0) != fail:
        raise AssertionError(f"memsctl admin {' '.join(args)}: exit {out.returncode}: "
                             f"{out.stderr.strip()}")
    if fail:
        return out.stderr.strip()
    return out.stdout if raw else json.loads(out.stdout)


class Checks:
    """check(ok, what) prints PASS or FAIL with what was seen; status() is the exit status."""

    def __init__(self):
        self.failures = []

    def __call__(self, ok, what):
        print(("PASS " if ok else "FAIL ") + what)
        if not ok:
            self.failures.append(what)

    def status(self, name):
        if self.failures:
            print(f"{len(self.failures)} check(s) failed")
            return 1
        print(f"{name}: all checks passed")
        return 0
