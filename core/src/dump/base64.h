// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace pte::dump {

/** Standard or URL-safe base64 (padding and line breaks ignored); nullopt on any other character. */
std::optional<std::vector<std::uint8_t>> decodeBase64(std::string_view s);

} // namespace pte::dump
