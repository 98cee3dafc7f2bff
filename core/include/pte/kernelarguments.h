// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string>
#include <string_view>
#include <vector>

/**
 * @file
 * What each slot of a KernelCall's argument list is, from ptelens' built-in operator schemas: names for the
 * views ("self", "mat1", "out") and which slots the kernel writes (for data flow through a loaded program).
 */

namespace pte {

/** One slot of a KernelCall's `args`. */
struct KernelArgumentInfo
{
    std::string name; ///< the schema's argument name; a return slot is named "return" unless the schema names it
    bool written = false; ///< the kernel writes it: a mutable argument (`Tensor(a!)`) or a return slot
    bool isReturn = false; ///< a return slot (after the schema arguments)
};

/**
 * The slots of a KernelCall of operator `name` ("aten::addmm") with `overload` ("out"; "" or "default" for the
 * default overload), as ExecuTorch's emitter lays them out: the schema arguments in schema order, then the
 * return slot(s): one for an out variant (its out argument again, or a TensorList of its outs) and for a
 * symbolic op (its scalar result), one per return otherwise. Empty when the registry does not know the
 * operator (custom namespaces, backend ops): callers fall back to positions. Thread-safe; no errors.
 */
[[nodiscard]] std::vector<KernelArgumentInfo> kernelArguments(std::string_view name, std::string_view overload);

} // namespace pte
