// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The dtype codes of torch.export's serde and of ExecuTorch's exir serde, by writer and schema version.

#include "pte/dumpreader.h"

#include <cstdint>
#include <optional>

namespace pte::dump {

/** dtype tables: the same code means different types depending on the writer and the schema version. */
enum class DtypeTable
{
    TorchUpTo7, ///< float8 at 23..26 (torch 2.5 snapshot)
    Torch8Early, ///< 8.0-8.6: float8_e4m3fn 14, float8_e5m2 15, uint16 28
    Torch8Current, ///< 8.7+: uint16 28, float8 29..32, e8m0fnu 33, uint32 34, uint64 35
    ExecuTorch, ///< exir serde 5.x: uint16 14, float8_e5m2 15, float8_e4m3fn 16
};

/** The scalar type a dtype code means in `table`; nullopt for an unknown code. */
std::optional<ScalarType> convertDtype(DtypeTable table, std::int64_t code);

/** The dtype table of `ep`'s writer and schema version. */
DtypeTable dtypeTableFor(const ExportedProgram& ep);

} // namespace pte::dump
