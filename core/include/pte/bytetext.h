// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

/**
 * @file
 * Bytes shown to people: the one rule for "text when printable, else hex" that every view and CLI command uses, and
 * the reading of delegate compile specs built on it.
 */

namespace pte {

/**
 * Whether bytes read as text: not empty, valid UTF-8, and no control character other than tab, line feed and carriage
 * return (no C0 control, no DEL).
 */
[[nodiscard]] bool isPrintableText(std::span<const std::uint8_t> bytes) noexcept;

/**
 * Bytes as text when isPrintableText(), else as lower-case hex bytes separated by spaces ("00 01 ff"); an empty
 * value is "". At most `maxBytes` bytes are shown (text is cut at a character boundary), followed by
 * " ... (N bytes)" when there are more.
 */
[[nodiscard]] std::string printableOrHex(std::span<const std::uint8_t> bytes, std::size_t maxBytes = 256);

/**
 * A delegate compile spec's value as text. Keys whose encoding the ExecuTorch backends fix are decoded as they write
 * them: little-endian int32 (num_threads, Vulkan's storage_type_override and memory_layout_override), int32 lists
 * (texture_limits), one-byte booleans (use_fp16, use_bf16, force_fp32, skip_tag_memory_metadata). A known key whose
 * value does not have that encoding, and any other key, read as printableOrHex() (at most `maxBytes`); an empty value
 * is "(empty)". Values of unknown keys are not guessed from their size: four bytes under an unknown key stay hex.
 */
[[nodiscard]] std::string compileSpecText(
    std::string_view key, std::span<const std::uint8_t> value, std::size_t maxBytes = 1024);

} // namespace pte
