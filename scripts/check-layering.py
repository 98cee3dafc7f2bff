#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ptelens authors
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the #include lines of the repository against the allow-list in scripts/layering.txt.

Every C++ file (.cpp, .h, .inc known to git) belongs to a unit (a folder, or for core/include/pte/X.h the core
stage that implements X). Each #include that resolves to a file of the repository is an edge from the including
file's unit to the included file's unit; an edge must be allowed by an `allow` line, or be listed as a temporary
`exception` (one including file and one include). Headers under core/src/<stage>/ are the stage's internal headers:
other units may include them only where the allow-list names `core/<stage>-internal`.

Prints one line per forbidden include (file:line: ...) and exits 1; exits 0 when the layering holds. Also fails on
exceptions that no longer match an include (remove them), on files outside every unit and on a cycle among the
allowed edges.

Usage: scripts/check-layering.py [--root DIR] [--list-units]
"""
import argparse
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')
SOURCE = re.compile(r"\.(cpp|h|inc)$")


def parse_rules(path):
    units = []  # (prefix, name), longest prefix wins
    headers = {}  # public header path -> unit
    allow = {}  # unit -> set of units
    exceptions = {}  # (file, include) -> line number in layering.txt
    roots = []
    errors = []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            args = rest.split()
            if word == "unit" and len(args) >= 2:
                units.extend((prefix, args[0]) for prefix in args[1:])
            elif word == "header" and len(args) == 2:
                headers[args[0]] = args[1]
            elif word == "root" and args:
                roots.extend(args)
            elif word == "allow" and len(args) >= 1 and args[0].endswith(":"):
                allow.setdefault(args[0][:-1], set()).update(args[1:])
            elif word == "exception" and len(args) == 2:
                exceptions[(args[0], args[1])] = number
            else:
                errors.append(f"{path}:{number}: cannot read '{raw.rstrip()}'")
    units.sort(key=lambda u: len(u[0]), reverse=True)
    return units, headers, allow, exceptions, roots, errors


def list_files(root):
    """The files of the repository: git's list, or outside a git checkout (a source tarball) a walk of the tree."""
    try:
        files = subprocess.check_output(["git", "ls-files"], cwd=root, text=True, stderr=subprocess.DEVNULL)
        return {f for f in files.split("\n") if f}
    except (OSError, subprocess.CalledProcessError):
        found = set()
        for top in ("app", "bench", "core", "fuzz", "schema", "tests", "ui"):
            for directory, _, names in os.walk(os.path.join(root, top)):
                found.update(os.path.relpath(os.path.join(directory, n), root) for n in names)
        return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--root", default=os.path.dirname(here))
    parser.add_argument("--rules", default=None)
    parser.add_argument("--list-units", action="store_true", help="print every file's unit and exit")
    options = parser.parse_args()
    root = options.root
    rules = options.rules or os.path.join(root, "scripts", "layering.txt")
    units, headers, allow, exceptions, roots, errors = parse_rules(rules)

    tracked = list_files(root)
    sources = sorted(f for f in tracked if SOURCE.search(f) and os.path.exists(os.path.join(root, f)))

    # A public header core/include/pte/X.h belongs to the stage with core/src/<stage>/X.cpp, unless a
    # `header` line names its unit.
    stage_of_cpp = {}
    for f in tracked:
        parts = f.split("/")
        if len(parts) >= 4 and parts[0] == "core" and parts[1] == "src" and f.endswith(".cpp"):
            stage_of_cpp.setdefault(os.path.basename(f)[:-4], "core/" + parts[2])

    def unit_of(path):
        """The unit of a repository file and whether it is a stage-internal header."""
        if path.startswith("core/include/pte/"):
            name = path[len("core/include/") :]
            if name in headers:
                return headers[name], False
            stem = os.path.basename(path)[:-2]
            return stage_of_cpp.get(stem), False
        for prefix, name in units:
            if path.startswith(prefix):
                internal = path.startswith("core/src/") and not path.endswith(".cpp")
                return name, internal
        return None, False

    if options.list_units:
        for f in sources:
            unit, internal = unit_of(f)
            print(f"{f} {unit}{'-internal' if internal else ''}")
        return 0

    for f in sources:
        if unit_of(f)[0] is None:
            errors.append(f"{f}: belongs to no unit of {os.path.relpath(rules, root)} (add a unit or header line)")

    used_exceptions = set()
    for f in sources:
        source_unit, _ = unit_of(f)
        if source_unit is None:
            continue
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as text:
            for number, line in enumerate(text, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                name = match.group(2)
                # Generated headers of the schema live in the build tree.
                if name.startswith("pte/schema/"):
                    target, internal = "schema", False
                else:
                    candidates = [os.path.normpath(os.path.join(os.path.dirname(f), name))]
                    candidates += [r + "/" + name for r in roots]
                    found = next((c for c in candidates if c in tracked), None)
                    if found is None:
                        continue  # a system or third-party header
                    target, internal = unit_of(found)
                    if target is None:
                        continue  # reported above
                if target == source_unit:
                    continue
                wanted = target + "-internal" if internal else target
                if wanted in allow.get(source_unit, ()):
                    continue
                if (f, name) in exceptions:
                    used_exceptions.add((f, name))
                    continue
                kind = "internal header of " if internal else ""
                errors.append(
                    f"{f}:{number}: forbidden include \"{name}\" ({source_unit} may not include {kind}{target})"
                )

    for (f, name), number in sorted(exceptions.items(), key=lambda e: e[1]):
        if (f, name) not in used_exceptions:
            errors.append(
                f"{os.path.relpath(rules, root)}:{number}: exception '{f} {name}' no longer matches an include: remove it"
            )

    # The allowed edges (units, ignoring -internal) must not form a cycle.
    graph = {u: {t[: -len("-internal")] if t.endswith("-internal") else t for t in ts} for u, ts in allow.items()}
    state = {}

    def visit(u, stack):
        state[u] = 1
        for t in sorted(graph.get(u, ())):
            if t == u:
                continue
            if state.get(t) == 1:
                errors.append(f"{os.path.relpath(rules, root)}: the allowed edges form a cycle: {' -> '.join(stack + [t])}")
            elif t not in state:
                visit(t, stack + [t])
        state[u] = 2

    for u in sorted(graph):
        if u not in state:
            visit(u, [u])

    for e in errors:
        print(e)
    if errors:
        print(f"check-layering: {len(errors)} problem(s); the allowed dependencies are in {os.path.relpath(rules, root)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
