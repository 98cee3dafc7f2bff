// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string>
#include <string_view>

/**
 * @file
 * Operator names written "ns::name.overload" ("aten::add.out", "aten::relu",
 * "quantized_decomposed::quantize_per_tensor.out"): the one place they are split, and the one rule for the default
 * overload.
 */

namespace pte {

/** An operator name split into its parts. */
struct OperatorName
{
    std::string ns; ///< "aten"; empty when the name has no "::"
    std::string name; ///< "add"
    std::string overload; ///< "out", as written: empty when the name has no '.', "default" stays "default"
};

/**
 * Splits "ns::name.overload": the namespace ends at the first "::", the name at the first '.' after it, the overload is
 * the rest. Without "::" the namespace is empty and the whole text is "name.overload".
 */
[[nodiscard]] OperatorName splitOperatorName(std::string_view qualified);

/** Whether an overload names the default one: empty or "default" (PyTorch writes either). */
[[nodiscard]] constexpr bool isDefaultOverload(std::string_view overload) noexcept
{
    return overload.empty() || overload == "default";
}

} // namespace pte
