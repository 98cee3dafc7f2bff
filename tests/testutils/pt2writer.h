// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A test `Dump` written as the .pt2 archive torch 2.9's torch.export.save writes (PT2 archive version 0): one root
// folder, models/model.json, the state dict as raw little-endian storages under data/weights with
// model_weights_config.json, tensor constants and non-persistent buffers under data/constants with
// model_constants_config.json, archive_format, archive_version, byteorder, .data/version and
// .data/serialization_id; every entry STORED and its payload 64-byte aligned by an "FB" extra field of 'Z' bytes,
// as PyTorchStreamWriter pads them. No data/sample_inputs (torch writes a pickle there; it is optional).

#include "dumpbuilder.h"
#include "pte/result.h"

#include <string>

namespace pte::test {

struct Pt2Options
{
    std::string root; ///< the archive's root folder; empty: the file's base name, as torch.export.save names it
    std::string model = "model"; ///< models/<model>.json (torch.export.save: "model")
};

/** Writes `dump` to `path` as a .pt2 archive. Fails with Io when the file cannot be written. */
[[nodiscard]] Result<void> writePt2(const Dump& dump, const std::string& path, const Pt2Options& options = {});

} // namespace pte::test
