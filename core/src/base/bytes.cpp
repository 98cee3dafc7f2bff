// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/bytes.h"

#include "base/littleendian.h"

#include <cstring>
#include <memory>
#include <openssl/evp.h>

namespace pte {

Bytes Bytes::fromVector(std::vector<std::uint8_t> data)
{
    auto owner = std::make_shared<const std::vector<std::uint8_t>>(std::move(data));
    return Bytes(owner, std::span<const std::uint8_t>(owner->data(), owner->size()));
}

Bytes Bytes::copyOf(std::string_view data) { return fromVector(std::vector<std::uint8_t>(data.begin(), data.end())); }

bool Bytes::contentEquals(const Bytes& other) const noexcept
{
    return size() == other.size() && (size() == 0 || std::memcmp(data(), other.data(), size()) == 0);
}

std::string sha256Hex(std::span<const std::uint8_t> data)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
    // Feed in chunks so huge mapped segments are paged in progressively.
    constexpr std::size_t kChunk = std::size_t(1) << 24;
    for (std::size_t pos = 0; pos < data.size(); pos += kChunk)
        EVP_DigestUpdate(ctx.get(), data.data() + pos, std::min(kChunk, data.size() - pos));
    EVP_DigestFinal_ex(ctx.get(), digest, &len);
    return hexOf(std::span<const std::uint8_t>(digest, len));
}

std::string hexOf(std::span<const std::uint8_t> data)
{
    static constexpr char hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(data.size() * 2);
    for (const std::uint8_t b : data) {
        out.push_back(hex[b >> 4]);
        out.push_back(hex[b & 15]);
    }
    return out;
}

namespace base {

std::string describeMagic(const std::uint8_t* p, std::size_t n)
{
    bool printable = true;
    for (std::size_t i = 0; i < n; ++i)
        printable = printable && p[i] >= 0x20 && p[i] < 0x7f;
    if (printable)
        return "'" + std::string(reinterpret_cast<const char*>(p), n) + "'";
    return "0x" + hexOf(std::span<const std::uint8_t>(p, n));
}

} // namespace base

} // namespace pte
