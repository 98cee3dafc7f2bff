// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Byte helpers for the binary readers (the .pte and .ptd readers, the ETDump reader, the flatbuffer walk, delegate
// payloads): little-endian loads and the description of a file identifier (private to core).

#include <cstddef>
#include <cstdint>
#include <string>

namespace pte::base {

/** Little-endian loads with no alignment requirement. */
inline std::uint32_t loadU32(const std::uint8_t* p) noexcept
{
    return std::uint32_t(p[0]) | (std::uint32_t(p[1]) << 8) | (std::uint32_t(p[2]) << 16) | (std::uint32_t(p[3]) << 24);
}
inline std::uint64_t loadU64(const std::uint8_t* p) noexcept
{
    return std::uint64_t(loadU32(p)) | (std::uint64_t(loadU32(p + 4)) << 32);
}

/** A printable description of identifier bytes ("'ET12'", or "0x..." hex when one is not printable ASCII). */
std::string describeMagic(const std::uint8_t* p, std::size_t n);

} // namespace pte::base
