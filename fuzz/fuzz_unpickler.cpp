// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the restricted unpickler. The input is read as a raw pickle (strict and opaque-object
// modes); when it looks like a zip it is also read as a whole torch.save archive (readTorchSave).

#include "dump/pickle/unpickler.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::span<const std::uint8_t> input(data, size);
    {
        const auto strict = pte::dump::Unpickler::load(input, "fuzz.pkl");
        (void)strict;
        pte::dump::UnpickleOptions opaque;
        opaque.opaqueObjects = true;
        const auto lenient = pte::dump::Unpickler::load(input, "fuzz.pkl", opaque);
        (void)lenient;
    }
    if (size >= 2 && data[0] == 'P' && data[1] == 'K') {
        const auto bytes = pte::Bytes::copyOf(std::string_view(reinterpret_cast<const char*>(data), size));
        const auto tensors = pte::dump::readTorchSave(bytes, "fuzz.pt", std::uint64_t(64) << 20);
        (void)tensors;
    }
    return 0;
}
