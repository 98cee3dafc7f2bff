// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

/**
 * @file
 * The composites the lowering decomposes (ExecuTorch's to_edge decompositions,
 * the core ATen decomposition table): a table from the aten operator name to
 * one function each (decompositions.cpp), used by Lowering::decompose.
 */

namespace pte::emitcore {

/**
 * The aten operators the lowering decomposes, sorted: the keys of the
 * decomposition table, so the one list the lowering consults. Some are
 * decomposed for certain overloads only (squeeze, sum and empty for one
 * overload, _native_batch_norm_legit with or without stats, to.dtype); the
 * other overloads are lowered as they are or refused. No errors.
 */
[[nodiscard]] std::vector<std::string_view> decomposedOperators();

/** One decomposition, for the generated table (docs/decompositions.md). */
struct DecompositionInfo
{
    std::string op; ///< the aten operator ("lstm")
    std::string becomes; ///< what it becomes, in words
};

/** Every decomposition, sorted by operator. No errors. */
[[nodiscard]] std::vector<DecompositionInfo> decompositionTable();

/** What the lowering does with an aten operator (all its overloads), for the generated table. */
struct OperatorLowering
{
    enum class Kind : std::uint8_t
    {
        Decomposed, ///< a decomposition (DecompositionInfo::becomes)
        Kernel, ///< lowered as it is: ExecuTorch's runtime has its out variant(s)
        Functionalized, ///< an in-place form, lowered as its functional op
        None, ///< neither: emission refuses it
    };
    Kind kind = Kind::None;
    std::string becomes; ///< the decomposition's words, the kernel keys, or the functional op
};

/** How aten operator `op` ("lstm", "relu_") is lowered. No errors. */
[[nodiscard]] OperatorLowering operatorLowering(std::string_view op);

} // namespace pte::emitcore
