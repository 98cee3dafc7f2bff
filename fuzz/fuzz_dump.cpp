// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: readDump (zip reader, PT2 / legacy / ETRecord / bare JSON dispatch, pickled weights) on
// the input written to a per-process temporary file (readDump only takes a path).

#include "pte/dumpreader.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace {

const std::string& scratchPath()
{
    static const std::string path = [] {
        const char* dir = std::getenv("TMPDIR");
        return std::string(dir && *dir ? dir : "/tmp") + "/ptelens-fuzz-dump-" + std::to_string(::getpid()) + ".bin";
    }();
    return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string& path = scratchPath();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        std::abort(); // the harness itself is broken; do not report inputs as uninteresting
    if (size > 0 && std::fwrite(data, 1, size, f) != size)
        std::abort();
    std::fclose(f);

    pte::DumpReadOptions options;
    options.maxEntrySize = std::uint64_t(64) << 20; // keep declared sizes within the fuzzer's memory limit
    const auto dump = pte::readDump(path, options);
    (void)dump;
    std::remove(path.c_str());
    return 0;
}
