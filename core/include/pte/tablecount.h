// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"

#include <cstdint>

/**
 * @file
 * The size of a Program in flatbuffer tables, as program.fbs lays it out: a property of the model that the emitter
 * checks before it hands a program on and the writer's tests check after serializing (ptewriter.h includes it).
 */

namespace pte {

/** The tables the flatbuffers verifier accepts by default (flatbuffers::Verifier's max_tables), which ExecuTorch's
 *  Program::load uses when it verifies (Verification::InternalConsistency); Minimal verification does not count. */
inline constexpr std::uint64_t kMaxVerifierTables = 1000000;

/** How many flatbuffer tables the serialized program holds (what the verifier counts against kMaxVerifierTables). */
[[nodiscard]] std::uint64_t flatbufferTableCount(const Program& program) noexcept;

} // namespace pte
