// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The one way core builds the field paths of Error and Diagnostic: flatbuffer paths
// ("execution_plan[0].chains[0].instructions[3]") and JSON paths ("graph_module.graph.nodes[2].inputs[0]").

#include <cstddef>
#include <string>
#include <string_view>

namespace pte::base {

/** "base[i]" */
[[nodiscard]] inline std::string indexPath(std::string_view base, std::size_t i)
{
    std::string s(base);
    s += '[';
    s += std::to_string(i);
    s += ']';
    return s;
}

/** "base.key", or "key" when base is empty. */
[[nodiscard]] inline std::string joinPath(std::string_view base, std::string_view key)
{
    std::string s(base);
    if (!s.empty())
        s += '.';
    s += key;
    return s;
}

} // namespace pte::base
