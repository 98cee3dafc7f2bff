// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QString>

#include <string_view>

namespace pte::ui {

/**
 * A delegate compile spec's value as text. Keys whose type the ExecuTorch backends fix are decoded as they
 * write them (little-endian int32 such as num_threads or Vulkan's storage_type_override, one-byte booleans
 * such as use_fp16, int32 triples such as texture_limits); any other value is shown as text when its bytes
 * are printable UTF-8, else as hex bytes (at most `maxBytes`).
 */
[[nodiscard]] QString compileSpecText(std::string_view key, std::string_view value, std::size_t maxBytes = 64);

} // namespace pte::ui
