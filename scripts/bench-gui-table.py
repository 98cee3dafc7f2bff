#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The ptelens authors
# SPDX-License-Identifier: BSD-3-Clause
"""Runs the GUI benchmarks (bench_workbench, bench_profile: Google Benchmark, offscreen) and writes their results into
docs/benchmarks.md, between the `bench-gui: begin` and `bench-gui: end` markers, so that the GUI table is the
programs' output and not a transcription. `make bench-table` calls it after ptelens-bench.

Each row is one benchmark: its wall and CPU time per iteration, its counters, and the target it has, if any (the
targets are below, by benchmark name). The header names the date, the machine and the load average at the start, as
Google Benchmark reports them.

Usage: scripts/bench-gui-table.py [--build DIR] [--doc FILE]
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = ["bench_workbench", "bench_profile"]
BEGIN = "<!-- bench-gui: begin (written by scripts/bench-gui-table.py) -->"
END = "<!-- bench-gui: end -->"
# (benchmark name pattern, wall-time limit in ms, what the target says)
TARGETS = [
    (r"^(OpenToUsable|StartToUsable)\b", 1000, "< 1 s"),
    (r"^Filter", 100, "< 100 ms"),
    (r"^ProfileFilter", 100, "< 100 ms"),
    (r"^ProfileOpenAndJoin\b", 1000, "< 1 s"),
]
UNIT_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
NOT_COUNTERS = {"name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
                "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "label"}


def run(binary):
    """Google Benchmark's JSON report of one program."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([binary, "--benchmark_format=json"], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"bench-gui-table: {binary} exited with {out.returncode}; the table is left as it was\n{out.stderr}")
    return json.loads(out.stdout)


def number(v):
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.2f}"


def rows(program, report):
    for b in report["benchmarks"]:
        scale = UNIT_MS[b["time_unit"]]
        wall, cpu = b["real_time"] * scale, b["cpu_time"] * scale
        counters = ", ".join(f"{k} {number(v)}" for k, v in b.items() if k not in NOT_COUNTERS)
        target, met = "", "-"
        for pattern, limit, text in TARGETS:
            if re.search(pattern, b["name"]):
                target, met = text, "yes" if wall < limit else "no"
                break
        yield f"| `{program}` | `{b['name']}` | {wall:,.2f} | {cpu:,.2f} | {counters} | {target} | {met} |"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--doc", default=os.path.join(ROOT, "docs", "benchmarks.md"))
    args = parser.parse_args()
    reports = []
    for program in PROGRAMS:
        binary = os.path.join(args.build, "bin", program)
        if not os.access(binary, os.X_OK):
            print(f"bench-gui-table: {binary} was not built (needs PTELENS_BUILD_GUI, PTELENS_BUILD_BENCH and "
                  "libbenchmark-dev)", file=sys.stderr)
            return 2
        print(f"running {program}...", file=sys.stderr)
        reports.append((program, run(binary)))
    context = reports[0][1]["context"]
    load = context.get("load_avg") or [0]
    lines = [BEGIN, "",
             f"Measured {context['date']} on {context['num_cpus']} cores ({context['host_name']}); load average at the "
             f"start {load[0]:.2f}. Times per iteration in ms; a `manual_time` benchmark's wall time is the span it timed "
             "itself, its CPU time the whole iteration's.", "",
             "| program | benchmark | wall ms | CPU ms | counters | target | met |",
             "|---|---|--:|--:|---|---|---|"]
    for program, report in reports:
        lines += rows(program, report)
    lines += ["", END]
    with open(args.doc, encoding="utf-8") as f:
        doc = f.read()
    start, end = doc.find(BEGIN), doc.find(END)
    if start < 0 or end < start:
        print(f"bench-gui-table: {args.doc} has no '{BEGIN}' ... '{END}' markers", file=sys.stderr)
        return 2
    # Written beside the document and renamed over it, so an interrupted run leaves the old text, never half a file.
    tmp = f"{args.doc}.tmp-{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(doc[:start] + "\n".join(lines) + doc[end + len(END):])
        os.replace(tmp, args.doc)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    print(f"wrote {os.path.relpath(args.doc)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
