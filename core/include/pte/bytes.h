// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace pte {

/**
 * A read-only view of bytes that keeps its storage alive. The storage is usually a memory-mapped
 * file (weights, segments, delegate blobs are never copied), or an owned vector for bytes made in
 * memory. Copying a Bytes copies the reference, not the data. Thread-safe to read.
 */
class Bytes
{
public:
    Bytes() = default;
    Bytes(std::shared_ptr<const void> owner, std::span<const std::uint8_t> view)
        : m_owner(std::move(owner))
        , m_view(view)
    { }

    /** Takes ownership of a vector. */
    [[nodiscard]] static Bytes fromVector(std::vector<std::uint8_t> data);
    /** Copies a string's bytes. */
    [[nodiscard]] static Bytes copyOf(std::string_view data);

    [[nodiscard]] const std::uint8_t* data() const noexcept { return m_view.data(); }
    [[nodiscard]] std::size_t size() const noexcept { return m_view.size(); }
    [[nodiscard]] bool empty() const noexcept { return m_view.empty(); }
    [[nodiscard]] std::span<const std::uint8_t> span() const noexcept { return m_view; }
    [[nodiscard]] std::string_view asStringView() const noexcept
    {
        return { reinterpret_cast<const char*>(m_view.data()), m_view.size() };
    }
    /** A sub-view sharing the same owner. The range must lie inside this view. */
    [[nodiscard]] Bytes slice(std::size_t offset, std::size_t length) const
    {
        return Bytes(m_owner, m_view.subspan(offset, length));
    }
    [[nodiscard]] const std::shared_ptr<const void>& owner() const noexcept { return m_owner; }

    /** Byte-wise equality of contents. */
    [[nodiscard]] bool contentEquals(const Bytes& other) const noexcept;

private:
    std::shared_ptr<const void> m_owner;
    std::span<const std::uint8_t> m_view;
};

/** Lower-case hex of the bytes, two digits per byte, no separator. */
[[nodiscard]] std::string hexOf(std::span<const std::uint8_t> data);

/** Lower-case hex SHA-256 of the bytes (streams; no copy). */
[[nodiscard]] std::string sha256Hex(std::span<const std::uint8_t> data);

} // namespace pte
