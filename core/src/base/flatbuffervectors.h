// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Copying a flatbuffers vector of scalars out of a verified buffer (private to core).
#pragma once

#include <cstring>
#include <flatbuffers/flatbuffers.h>
#include <vector>

namespace pte::base {

/**
 * The elements of `v` (empty for a null vector), read byte-wise: the verifier does not check the alignment of
 * 8-byte elements, so they are copied rather than read in place.
 */
template <typename T> std::vector<T> scalarVector(const flatbuffers::Vector<T>* v)
{
    std::vector<T> out;
    if (v && v->size()) {
        out.resize(v->size());
        std::memcpy(out.data(), v->Data(), std::size_t(v->size()) * sizeof(T));
    }
    return out;
}

} // namespace pte::base
