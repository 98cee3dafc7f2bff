// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/kernelcoverage.h"

#include <algorithm>
#include <string>
#include <vector>

namespace pte {

namespace {
constexpr std::string_view kKernelText =
#include "emit/portablekernels.inc"
    ;

const std::vector<std::string_view>& sortedKernels()
{
    static const std::vector<std::string_view> kernels = [] {
        std::vector<std::string_view> out;
        std::string_view text = kKernelText;
        while (!text.empty()) {
            const auto nl = text.find('\n');
            auto line = text.substr(0, nl);
            text = nl == std::string_view::npos ? std::string_view {} : text.substr(nl + 1);
            while (!line.empty() && (line.back() == ' ' || line.back() == '\r'))
                line.remove_suffix(1);
            if (!line.empty() && line.front() != '#')
                out.push_back(line);
        }
        std::sort(out.begin(), out.end());
        return out;
    }();
    return kernels;
}
} // namespace

bool portableKernelImplements(std::string_view qualifiedName) noexcept
{
    const auto& k = sortedKernels();
    return std::binary_search(k.begin(), k.end(), qualifiedName);
}

} // namespace pte
