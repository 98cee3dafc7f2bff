#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The ptelens authors
# SPDX-License-Identifier: BSD-3-Clause
#
# Runs every libFuzzer target of a fuzz build dir for FUZZ_SECONDS each (default 60).
# Usage: fuzz/run-fuzzers.sh <build dir> [fuzzer names...]
# Each fuzzer grows its own corpus in <build dir>/fuzz/corpus/<name>, seeded from <build dir>/fuzz/seeds.
# When $PTELENS_CORPUS is set, its files are extra read-only seed dirs (libFuzzer only writes to the first
# corpus dir, so nothing is ever copied out of it). Crashes go to <build dir>/fuzz/artifacts/.
# Exits non-zero when any fuzzer reports a crash, hang, leak or sanitizer error.
set -uo pipefail

build=${1:?usage: run-fuzzers.sh <build dir> [fuzzer names...]}
shift
seconds=${FUZZ_SECONDS:-60}
names=("$@")
if [ ${#names[@]} -eq 0 ]; then names=(pte exported_program dump unpickler etdump delegate); fi

bin="$build/bin"
seeds="$build/fuzz/seeds"
work="$build/fuzz"
mkdir -p "$work/artifacts" "$work/logs"

seeds_for() {
    case "$1" in
    pte) echo "$seeds/pte" ;;
    exported_program) echo "$seeds/json" ;;
    dump) echo "$seeds/dump" ;;
    unpickler) echo "$seeds/pickle" ;;
    etdump) echo "$seeds/etdump" ;;
    delegate) echo "$seeds/delegate" ;;
    esac
}

# Extra seed dirs from the real-file corpus (read in place).
extra_for() {
    [ -n "${PTELENS_CORPUS:-}" ] && [ -d "$PTELENS_CORPUS" ] || return 0
    case "$1" in
    pte | etdump) [ -d "$PTELENS_CORPUS/pte" ] && echo "$PTELENS_CORPUS/pte" ;;
    dump) [ -d "$PTELENS_CORPUS/dumps" ] && echo "$PTELENS_CORPUS/dumps" ;;
    unpickler) [ -d "$PTELENS_CORPUS/dumps" ] && echo "$PTELENS_CORPUS/dumps" ;;
    esac
    return 0
}

status=0
for name in "${names[@]}"; do
    exe="$bin/fuzz_$name"
    if [ ! -x "$exe" ]; then
        echo "fuzz: $exe is missing (configure with -DPTELENS_BUILD_FUZZ=ON and a clang compiler)" >&2
        exit 2
    fi
    corpus="$work/corpus/$name"
    mkdir -p "$corpus"
    dirs=("$corpus" "$(seeds_for "$name")")
    extra=$(extra_for "$name")
    [ -n "$extra" ] && dirs+=("$extra")
    log="$work/logs/$name.log"
    echo "fuzz: $name for ${seconds}s (corpus dirs: ${dirs[*]})"
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
        "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=${FUZZ_MAX_LEN:-262144} -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/$name-" "${dirs[@]}" >"$log" 2>&1
    rc=$?
    grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)' "$log" | tail -2
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log"
    if [ $rc -ne 0 ]; then
        echo "fuzz: $name FAILED (exit $rc); see $log and $work/artifacts/" >&2
        grep -E 'ERROR: |SUMMARY: |runtime error|Test unit written' "$log" | head -5 >&2
        status=1
    fi
done
exit $status
