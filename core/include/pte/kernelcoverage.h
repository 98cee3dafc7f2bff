// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string_view>

namespace pte {

/**
 * Whether ExecuTorch's portable kernel library implements the operator, given the runtime lookup key
 * ("aten::add.out", "dim_order_ops::_to_dim_order_copy.out").
 */
[[nodiscard]] bool portableKernelImplements(std::string_view qualifiedName) noexcept;

} // namespace pte
