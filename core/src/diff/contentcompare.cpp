// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Comparing and hashing payloads in chunks, and the element-wise difference of two constant tensors.
#include "diff/contentcompare.h"

#include "pte/chunkreader.h"
#include "pte/elementvalue.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <openssl/evp.h>

namespace pte::diff {

namespace {

/** Chunk size of both readers: a multiple of every element size, so elements never straddle two chunks. */
constexpr std::size_t kChunk = std::size_t(4) << 20;

bool cancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(std::memory_order_relaxed); }

Unexpected cancelledError() { return fail(ErrorCode::Cancelled, "the comparison was cancelled"); }

/** Logical indices of the element at storage position `flat` for a tensor stored in `dimOrder`. */
std::vector<std::int64_t> logicalIndex(
    std::uint64_t flat, const std::vector<std::int32_t>& sizes, const std::vector<std::uint8_t>& dimOrder)
{
    std::vector<std::int64_t> index(sizes.size(), 0);
    for (std::size_t r = sizes.size(); r-- > 0;) {
        const std::size_t dim = r < dimOrder.size() && dimOrder[r] < sizes.size() ? dimOrder[r] : r;
        const auto extent = std::uint64_t(std::max(sizes[dim], 1));
        index[dim] = std::int64_t(flat % extent);
        flat /= extent;
    }
    return index;
}

} // namespace

Result<bool> sameBytes(const Bytes& a, const Bytes& b, const std::atomic<bool>* cancel)
{
    if (a.size() != b.size())
        return false;
    if (a.data() == b.data())
        return true;
    ChunkReader ra(a, kChunk);
    ChunkReader rb(b, kChunk);
    for (;;) {
        if (cancelled(cancel))
            return cancelledError();
        PTE_TRY(const auto ca, ra.next());
        PTE_TRY(const auto cb, rb.next());
        if (ca.size() != cb.size())
            return false;
        if (ca.empty())
            return true;
        if (std::memcmp(ca.data(), cb.data(), ca.size()) != 0)
            return false;
    }
}

Result<std::string> sha256OfBytes(const Bytes& bytes, const std::atomic<bool>* cancel)
{
    const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
        return fail(ErrorCode::Internal, "cannot set up SHA-256");
    ChunkReader reader(bytes, kChunk);
    for (;;) {
        if (cancelled(cancel))
            return cancelledError();
        PTE_TRY(const auto chunk, reader.next());
        if (chunk.empty())
            break;
        EVP_DigestUpdate(ctx.get(), chunk.data(), chunk.size());
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(ctx.get(), digest, &len);
    return hexOf(std::span<const std::uint8_t>(digest, len));
}

Result<NumericDifference> compareElements(const Bytes& a, const Bytes& b, ScalarType type,
    const std::vector<std::int32_t>& sizes, const std::vector<std::uint8_t>& dimOrder, std::size_t maxIndices,
    const std::atomic<bool>* cancel)
{
    const std::size_t elementBytes = elementSize(type);
    std::uint64_t elements = 1;
    for (const auto s : sizes) {
        if (s < 0 || (s > 0 && elements > std::numeric_limits<std::uint64_t>::max() / std::uint64_t(s)))
            return fail(ErrorCode::InvalidInput, "a tensor with invalid sizes cannot be compared element by element");
        elements *= std::uint64_t(s);
    }
    if (elementBytes == 0 || a.size() != b.size() || a.size() != elements * elementBytes)
        return fail(ErrorCode::InvalidInput,
            "tensor bytes (" + std::to_string(a.size()) + " and " + std::to_string(b.size())
                + ") do not match the shape (" + std::to_string(elements) + " elements)");
    NumericDifference out;
    out.elements = elements;
    double sumAbs = 0;
    ChunkReader ra(a, kChunk);
    ChunkReader rb(b, kChunk);
    std::uint64_t element = 0;
    for (;;) {
        if (cancelled(cancel))
            return cancelledError();
        PTE_TRY(const auto ca, ra.next());
        PTE_TRY(const auto cb, rb.next());
        if (ca.empty() || cb.size() != ca.size())
            break;
        if (std::memcmp(ca.data(), cb.data(), ca.size()) == 0) {
            element += ca.size() / elementBytes;
            continue;
        }
        for (std::size_t off = 0; off + elementBytes <= ca.size(); off += elementBytes, ++element) {
            if (std::memcmp(ca.data() + off, cb.data() + off, elementBytes) == 0)
                continue;
            ++out.differing;
            if (out.firstIndices.size() < maxIndices)
                out.firstIndices.push_back(logicalIndex(element, sizes, dimOrder));
            // The stored numbers: quantized elements compare as their integers, a Bool as its byte.
            const auto va = elementValue(type, ca.data() + off, ElementReading::Stored);
            const auto vb = elementValue(type, cb.data() + off, ElementReading::Stored);
            if (!va || !vb)
                continue; // a dtype compared only as bytes
            const double x = *va;
            const double y = *vb;
            double d = std::fabs(x - y);
            if (std::isnan(x) != std::isnan(y) || (std::isnan(d) && !(std::isnan(x) && std::isnan(y))))
                d = std::numeric_limits<double>::infinity();
            else if (std::isnan(d))
                d = 0; // NaN against NaN (different payloads): the same number
            out.maxAbs = std::max(out.maxAbs, d);
            sumAbs += d;
        }
    }
    out.meanAbs = elements ? sumAbs / double(elements) : 0;
    return out;
}

} // namespace pte::diff
