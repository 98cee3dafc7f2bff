// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/mappedfile.h"

#include <cstdint>

/**
 * @file
 * The options of the serialize step (ptewriter.h), apart from its functions: the emitter and the GUI's document
 * carry them without depending on the writer itself.
 */

namespace pte {

/** Alignments of the serialized file; defaults are ExecuTorch's. */
struct WriteOptions
{
    std::uint64_t segmentAlignment = 128;
    std::uint32_t constantTensorAlignment = 16;
    std::uint32_t delegateAlignment = 16; ///< force_align of inline delegate blobs and Buffer.storage
    SyncPolicy sync = SyncPolicy::WhenReplacing; ///< when writePte waits for the disk
};

/**
 * Options of ExecuTorch's serialize step (serialize_pte_binary), which turns an emitted program
 * (constants in constant_buffer, delegate blobs inline) into the file layout.
 */
struct SerializeOptions
{
    WriteOptions write;
    bool extractDelegateSegments = true;
};

} // namespace pte
