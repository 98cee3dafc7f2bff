// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"

#include <cstdint>
#include <utility>

namespace pte::emitcore {

/** An EValue holding `v`, its raw type the variant's index (the KernelTypes union order). */
inline EValue makeValue(KernelValue v)
{
    EValue e;
    e.rawType = std::uint8_t(v.index());
    e.val = std::move(v);
    return e;
}

} // namespace pte::emitcore
