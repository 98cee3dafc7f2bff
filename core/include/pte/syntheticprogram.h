// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"
#include "pte/result.h"

#include <cstdint>

/**
 * @file
 * Synthetic programs of any size: `ptelens-cli synth`, the benchmarks, the fuzz seeds and the tests build their
 * inputs with them. The programs are laid out and ready for serializePte/writePte (ptewriter.h).
 */

namespace pte {

/** Shape of a synthetic program (`ptelens-cli synth`, benchmarks). */
struct SyntheticOptions
{
    std::uint64_t instructions = 1000; ///< KernelCalls in total, spread over the methods
    std::uint64_t constantBytes = 0; ///< bytes of constant tensor data in the constant segment
    std::uint32_t methods = 1;
    std::uint32_t activationElements = 16; ///< f32 elements of each planned activation
};

/**
 * A valid synthetic program: per method a chain of alternating aten::add.out / aten::mul.out
 * KernelCalls over planned f32 activations and one constant weight, plus u8 constant tensors holding
 * `constantBytes` in total (at most 256 MiB each), all in constant segment 0. The constant data is
 * backed by an anonymous read-only-after-fill mapping whose untouched pages are the shared zero page,
 * so a 2 GB program costs almost no memory. The result is laid out and ready for serializePte.
 * @returns InvalidInput for no method, fewer instructions than methods, more than 50,000,000 instructions,
 *   activationElements outside 1..16777216 or more than 64 TiB of constants; Io when the constant data's address
 *   space cannot be reserved.
 */
[[nodiscard]] Result<Program> makeSyntheticProgram(const SyntheticOptions& options);

} // namespace pte
