#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The ptelens authors
# SPDX-License-Identifier: BSD-3-Clause
# Regenerates docs/operators.md: runs tests/runtime/tst_runtime_operators on ExecuTorch's runtime (etrt_runner) and
# lets it write the table of every registered kernel (emitted / runs / values match, or why no graph reaches it).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
export PTELENS_ET_RUNNER=${PTELENS_ET_RUNNER:-$(cd .. && pwd)/shared/tools/etrt_runner}
if [ ! -x "$PTELENS_ET_RUNNER" ]; then
    echo "operators-table: ExecuTorch's runner not found at $PTELENS_ET_RUNNER (set PTELENS_ET_RUNNER)" >&2
    exit 1
fi
cmake --build "$BUILD_DIR" --target tst_runtime_operators -j "${JOBS:-2}"
PTELENS_TEST_DATA="$PWD/tests/data" PTELENS_OPERATORS_TABLE="$PWD/docs/operators.md" \
    "$BUILD_DIR/bin/tst_runtime_operators" operatorRunsAsPyTorchDefinesIt -silent
echo "wrote docs/operators.md"
