#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ptelens authors
# SPDX-License-Identifier: BSD-3-Clause
"""Checks that every type declared in the public headers core/include/pte/*.h has a doc comment.

A type is a `struct`, `class`, `union`, `enum` or `enum class` definition, or a `using X = ...;` alias, at namespace
scope or nested in another type. Forward declarations (`struct X;`), `friend` declarations and the parameters of
`template <...>` lists are not types to document. A type is documented when the line directly above it (above any
`template <...>` or attribute-only line) is a comment: `//`, `///`, or the end of a `/* ... */` block.

Prints `path:line: type X has no doc comment` for each undocumented type and exits 1; exits 0 with a one-line
summary when all are documented.

Usage: scripts/check-header-docs.py [--root DIR]
"""
import argparse
import glob
import os
import re
import sys

# A type keyword, optional attributes ([[nodiscard]]), the type's name, and the rest of the line.
TYPE = re.compile(r"^(?:enum\s+class|enum\s+struct|enum|struct|class|union)\s+(?:\[\[.*?\]\]\s*)*(\w+)(.*)$")
ALIAS = re.compile(r"^using\s+(\w+)\s*=")
TEMPLATE = re.compile(r"^template\s*<")
ATTRIBUTES = re.compile(r"^(\[\[.*?\]\]\s*)+$")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def strip_template_header(code, depth):
    """The code after a leading `template <...>` (with nested <>, possibly begun on earlier lines when depth > 0), and
    the depth of <> still open at the end of the line."""
    if depth == 0 and not TEMPLATE.match(code):
        return code, 0
    for i, c in enumerate(code):
        depth += {"<": 1, ">": -1}.get(c, 0)
        if c == ">" and depth == 0:
            return code[i + 1 :].strip(), 0
    return "", depth


def check(path, rel):
    """(types found, problems) of one header."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    raw = text.split("\n")
    # The code of each line: comments blanked out (keeping the line breaks of block comments), stripped.
    code = [c.strip() for c in COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text).split("\n")]
    found, problems, depth, preamble = 0, [], 0, set()  # preamble: template-header and attribute-only lines
    for number, line in enumerate(code):
        line, depth = strip_template_header(line, depth)
        if (not line and code[number]) or ATTRIBUTES.match(line):
            preamble.add(number)
        if line.startswith("friend"):
            continue
        match = TYPE.match(line)
        if match and ";" in match.group(2) and "{" not in match.group(2):
            continue  # a forward declaration (or an opaque enum declaration)
        match = match or ALIAS.match(line)
        if not match:
            continue
        found += 1
        above = number - 1
        while above in preamble:
            above -= 1
        comment = raw[above].strip() if above >= 0 else ""
        if not (comment.startswith("//") or comment.endswith("*/")):
            problems.append(f"{rel}:{number + 1}: type {match.group(1)} has no doc comment")
    return found, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    root = parser.parse_args().root
    headers = sorted(glob.glob(os.path.join(root, "core", "include", "pte", "*.h")))
    total, problems = 0, []
    for path in headers:
        found, bad = check(path, os.path.relpath(path, root))
        total += found
        problems += bad
    for p in problems:
        print(p)
    if problems:
        print(f"check-header-docs: {len(problems)} of {total} types in {len(headers)} headers have no doc comment")
        return 1
    print(f"check-header-docs: {total} types in {len(headers)} headers, all documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
