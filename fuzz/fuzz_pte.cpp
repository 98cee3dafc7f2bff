// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the .pte reader (flatbuffers verifier, decoding, runtime checks) and the JSON dump of
// whatever it accepted, and the delegate payloads inside it.

#include "pte/delegatepayload.h"
#include "pte/jsondump.h"
#include "pte/ptereader.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto bytes = pte::Bytes::copyOf(std::string_view(reinterpret_cast<const char*>(data), size));
    pte::ReadOptions options;
    options.findExternalDataNextToFile = false; // never look at the file system
    const auto file = pte::readPteBytes(bytes, "fuzz.pte", options);
    if (!file || !file.value()->program)
        return 0;
    const auto& pte = *file.value();
    (void)pte.runtimeWouldAccept();
    const auto diagnostics = pte::checkProgram(*pte.program, pte.externalData);
    (void)diagnostics;
    const auto json = pte::programToJson(*pte.program);
    (void)json;
    // The delegate payloads inside (real .pte seeds carry XNNPACK, Core ML, QNN, Ethos-U and OpenVINO blobs).
    const pte::PayloadDataSources sources { pte.program.get(), nullptr, nullptr };
    const auto delegates = pte::decodeProgramDelegates(*pte.program, sources, "fuzz.pte");
    (void)delegates;
    return 0;
}
