#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The ptelens authors
# SPDX-License-Identifier: BSD-3-Clause
# Runs every GUI test (ctest label `ui`) COUNT times in a row, stopping at the first failure, while CPU hogs keep
# every core busy: a test that waits on time instead of on a condition, or a race in the GUI, shows up here long
# before it shows up once in fifty `make test` runs.
#
# Usage: scripts/stress-ui-tests.sh [BUILD_DIR]        (default build; build-asan runs them under ASan/UBSan)
#   COUNT=30   runs of each test (ctest --repeat until-fail:COUNT)
#   HOGS=N     busy processes beside the tests (default: one per core, nproc)
#   JOBS=N     tests run in parallel (default: nproc)
#   LABEL=ui   another ctest label to stress
# Exits with ctest's status. The hogs are this script's own children and end with it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
count=${COUNT:-30}
hogs=${HOGS:-$(nproc)}
jobs=${JOBS:-$(nproc)}
label=${LABEL:-ui}
if [ ! -f "$build/CTestTestfile.cmake" ]; then
    echo "stress-ui-tests: $build is not a configured build dir (make build, or make test-asan for build-asan)" >&2
    exit 2
fi
cmake --build "$build" -j "$jobs"

hog_pids=()
stop_hogs() {
    for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${hog_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_hogs EXIT
for _ in $(seq "$hogs"); do
    yes >/dev/null &
    hog_pids+=($!)
done

export PTELENS_CORPUS=${PTELENS_CORPUS-$(if [ -d ../shared/fixtures ]; then cd ../shared/fixtures && pwd; fi)}
if [ "$build" != "${build%asan}" ]; then
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
    export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
fi
echo "stress-ui-tests: ctest -L $label --repeat until-fail:$count -j $jobs in $build, $hogs CPU hogs, load: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
status=0
(cd "$build" && ctest -L "$label" --repeat until-fail:"$count" -j "$jobs" --output-on-failure) || status=$?
echo "stress-ui-tests: exit $status after $(($(date +%s) - start)) s, load: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
