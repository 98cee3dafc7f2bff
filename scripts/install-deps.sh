#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The ptelens authors
# SPDX-License-Identifier: BSD-3-Clause
#
# Installs the Debian 12 packages ptelens needs, only those that are missing. Quiet when all are present.
# --fuzz: also the clang-14 toolchain (libFuzzer + sanitizer runtimes) that `make fuzz` needs; opt-in only.
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-base-dev-tools libgl-dev
    flatbuffers-compiler libflatbuffers-dev
    nlohmann-json3-dev
    libminizip-dev zlib1g-dev
    libgraphviz-dev
    libssl-dev
    libbenchmark-dev
    clang-format
    python3
)

# Only for the libFuzzer build (`make fuzz`); never part of the default list.
fuzz_packages=(clang-14 libclang-rt-14-dev)
for arg in "$@"; do
    case "$arg" in
    --fuzz) packages+=("${fuzz_packages[@]}") ;;
    *)
        echo "install-deps.sh: unknown option $arg (only --fuzz)" >&2
        exit 2
        ;;
    esac
done

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "ptelens: installing missing packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
