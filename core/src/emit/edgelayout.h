// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "emit/opschema.h"
#include "pte/program.h"
#include "pte/tensorshape.h" // contiguousStrides, broadcastShapes

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

/**
 * @file
 * How the edge dialect derives the layout and dtype of an operator's out tensors (internal to the lowering).
 */

namespace pte::emitcore {

/** torch's type categories: bool 0 < integral 1 < floating 2; -1 for the others (complex, quantized...). */
int dtypeCategory(ScalarType t);

/** ExecuTorch's dim order from strides (see dimOrderFromStrides). */
std::vector<std::uint8_t> dimOrderOf(std::span<const std::int64_t> strides);

/** How an operator's out tensor gets its dim order in ExecuTorch's edge dialect, where every node's metadata is
 *  re-derived by running the op's meta function on its inputs (to_edge), not copied from the exported graph. */
enum class LayoutRule : std::uint8_t
{
    Contiguous, ///< a new contiguous tensor (copies of views, matmuls, reductions, most other ops)
    KeepInput, ///< the layout of the first tensor input (pointwise ops, convolution, pooling, batch norm...)
    DimOrderArg, ///< dim_order_ops: the `dim_order` argument, or the input's when it is None
    MemoryFormatArg, ///< clone: the `memory_format` argument (contiguous), or the input's (preserve / None)
};

LayoutRule layoutRule(const OpSchema& s);

/** A pointwise op: its output has the broadcast shape of its tensor inputs (among the KeepInput ops, not those
 *  computing a new shape: convolution, pooling, padding, upsampling, glu...). */
bool isPointwise(const OpSchema& s);

/** How a pointwise op's result dtype follows from its operands (torch's type promotion), where that is certain. */
enum class DtypeRule : std::uint8_t
{
    None, ///< not derived: the dump's dtype is kept
    Bool, ///< comparisons, logical ops, isinf/isnan: always bool
    Promote, ///< the operands' common dtype (one tensor dtype, raised by a scalar of a higher category)
    FloatOp, ///< as Promote, then an integral or bool result becomes the default float dtype (true division...)
};

DtypeRule dtypeRule(const OpSchema& s);

} // namespace pte::emitcore
