// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the delegate payload decoders. Byte 0 picks the backend id (which only matters where the bytes
// carry no magic), the rest is the payload. Whatever decodes is then linked (without a source graph) and aligned
// with a few XNNPACK profiling labels, so those walk fuzzed graphs too.

#include "pte/delegatelink.h"
#include "pte/delegatepayload.h"
#include "pte/delegateprofile.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    static constexpr std::array<const char*, 9> backends { "XnnpackBackend", "VulkanBackend", "CoreMLBackend",
        "QnnBackend", "EthosUBackend", "VgfBackend", "OpenvinoBackend", "NeuropilotBackend", "SomeBackend" };
    const char* backend = backends[data[0] % backends.size()];
    const auto payload = pte::Bytes::copyOf(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
    // Named constants resolve against an empty program: the lookups run, the keys are reported missing.
    const pte::Program program;
    const pte::PayloadDataSources sources { &program, nullptr, nullptr };
    const auto decoded = pte::decodeDelegatePayload(backend, payload, {}, sources, "fuzz");
    const std::vector<std::int64_t> partition { 1, 2, 3, 65535 };
    const auto links = pte::linkDelegate(decoded, partition, nullptr, nullptr);
    (void)links;
    const std::vector<pte::DelegateProfileEvent> events { { "Convolution (NHWC, F32) IGEMM #1", 0, 1 },
        { "Fully Connected (NC, F32) GEMM #1", 1, 2 }, { "Add (ND) #1", 2, 3 } };
    const auto alignment = pte::alignXnnpackEvents(decoded, events);
    (void)alignment;
    return 0;
}
