#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The ptelens authors
# SPDX-License-Identifier: BSD-3-Clause
# Regenerates tests/data/zoo/<block>.json: the exported-program JSON (models/model.json of the .pt2 archive, no
# weights) of every block of tests/runtime/tst_model_zoo, written by the test itself (PTELENS_WRITE_ZOO).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake --build "$BUILD_DIR" --target tst_model_zoo -j "${JOBS:-2}"
out="$PWD/tests/data/zoo"
mkdir -p "$out"
rm -f "$out"/*.json
# Writing the dumps needs no runtime: without one, each test writes its dump, checks the archive it wrote and skips
# the run.
PTELENS_ET_RUNNER=/nonexistent PTELENS_TEST_DATA="$PWD/tests/data" PTELENS_WRITE_ZOO="$out" \
    "$BUILD_DIR/bin/tst_model_zoo" -silent
n=$(ls "$out"/*.json 2>/dev/null | wc -l)
echo "wrote $n dumps to tests/data/zoo"
[ "$n" -gt 0 ]
