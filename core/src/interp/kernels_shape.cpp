// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Kernels that copy and rearrange elements: views and copies, permutes, selects and slices, cat/stack/split, pads,
// flips, repeats, diagonals.
#include "interp/kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace pte::interp {

namespace {

struct Shape : Kernel
{
    using Kernel::Kernel;

    // [tensors, dim, out, ret] of cat and stack: the tensors, the dimension normalised against the output's rank (the
    // tensors' rank + `extraRank`), the output.
    struct ListArgs
    {
        std::vector<std::shared_ptr<TensorState>> parts;
        std::size_t dim = 0;
        std::shared_ptr<TensorState> out;
    };
    Result<ListArgs> listArgs(std::int64_t extraRank) const
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto parts, tensorList(arg(0)));
        PTE_TRY(const double dimD, scalar(arg(1)));
        PTE_TRY(auto out, tensor(arg(2)));
        if (parts.empty())
            return fail(ErrorCode::InvalidInput, where() + ": " + op + " of no tensors");
        const auto dim = dimIndex(dimD, std::int64_t(parts[0]->sizes.size()) + extraRank);
        if (!dim)
            return fail(ErrorCode::InvalidInput, where() + ": " + op + " dimension out of range");
        return ListArgs { std::move(parts), *dim, std::move(out) };
    }

    // [self, out, ret]: a complex64 tensor's (real, imaginary) pairs as a float tensor with a last dimension of 2.
    Result<void> viewAsRealCopy()
    {
        PTE_CHECK(need(3));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(auto out, tensor(arg(1)));
        if (self->dtype != ScalarType::ComplexFloat || out->dtype != ScalarType::Float)
            return fail(ErrorCode::InvalidInput, where() + ": " + op + " takes a complex64 tensor into a float one");
        auto sizes = self->sizes;
        sizes.push_back(2);
        PTE_CHECK(resize(*out, sizes));
        for (std::size_t e = 0; e < self->numel(); ++e) {
            float parts[2];
            std::memcpy(parts, self->data + self->physical(e) * sizeof parts, sizeof parts);
            out->set(2 * e, parts[0]);
            out->set(2 * e + 1, parts[1]);
        }
        return {};
    }

    // [self, memory_format?, out, ret]
    Result<void> clone()
    {
        PTE_CHECK(need(4));
        return unary(arg(0), arg(2), [](double x) { return x; });
    }

    Result<void> aliasCopy()
    {
        PTE_CHECK(need(3)); // [self, out, ret]: a copy
        return unary(arg(0), arg(1), [](double x) { return x; });
    }

    // [self, src, non_blocking, ret]
    Result<void> copy()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(auto src, tensor(arg(1)));
        if (broadcastShape(self->sizes, src->sizes) != self->sizes && !self->sizes.empty())
            return fail(ErrorCode::InvalidInput, where() + ": copy_ source does not broadcast to self");
        std::vector<double> values(self->numel());
        for (std::size_t e = 0; e < values.size(); ++e)
            values[e] = src->get(broadcastIndex(self->sizes, src->sizes, e));
        store(*self, values);
        return {};
    }

    // [self, dims, out, ret]
    Result<void> permuteCopy()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(auto dims, intList(arg(1)));
        PTE_TRY(auto out, tensor(arg(2)));
        const std::size_t rank = self->sizes.size();
        if (dims.size() != rank)
            return fail(ErrorCode::InvalidInput, where() + ": permute dims do not match the rank");
        std::vector<std::int64_t> shape(rank);
        const std::vector<std::size_t> inStride = contiguousStrides<std::size_t>(self->sizes);
        for (std::size_t k = 0; k < rank; ++k)
            shape[k] = self->sizes[std::size_t((dims[k] + std::int64_t(rank)) % std::int64_t(rank))];
        return gather(*self, *out, shape, [&](std::size_t e) {
            std::size_t index = 0;
            for (std::size_t k = rank; k-- > 0;) {
                const std::size_t coord = e % std::size_t(shape[k]);
                e /= std::size_t(shape[k]);
                index += coord * inStride[std::size_t((dims[k] + std::int64_t(rank)) % std::int64_t(rank))];
            }
            return index;
        });
    }

    // [self, size, out, ret]
    Result<void> viewCopy()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(auto size, intList(arg(1)));
        PTE_TRY(auto out, tensor(arg(2)));
        std::int64_t known = 1;
        std::size_t inferred = SIZE_MAX;
        for (std::size_t k = 0; k < size.size(); ++k) {
            if (size[k] == -1)
                inferred = k;
            else
                known *= size[k];
        }
        if (inferred != SIZE_MAX)
            size[inferred] = std::int64_t(self->numel()) / std::max<std::int64_t>(known, 1);
        return gather(*self, *out, size, [](std::size_t e) { return e; });
    }

    // [self, dim, index, out, ret]; negative dim and index count back
    Result<void> selectCopy()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(const double dimD, scalar(arg(1)));
        PTE_TRY(const double indexD, scalar(arg(2)));
        PTE_TRY(auto out, tensor(arg(3)));
        const auto dimOrNone = dimIndex(dimD, std::int64_t(self->sizes.size()));
        if (!dimOrNone)
            return fail(ErrorCode::InvalidInput, where() + ": select_copy dimension out of range");
        const std::size_t dim = *dimOrNone;
        const auto len = self->sizes[dim];
        const auto index = std::int64_t(indexD) < 0 ? std::int64_t(indexD) + len : std::int64_t(indexD);
        if (index < 0 || index >= len)
            return fail(ErrorCode::InvalidInput, where() + ": select_copy index out of range");
        return sliceDim(*self, *out, dim, index, 1, 1, false);
    }

    // [self, dim(s), out, ret]
    Result<void> squeezeCopy()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(auto out, tensor(arg(2)));
        std::vector<std::int64_t> dims;
        if (overload == "dims_out") {
            PTE_TRY(dims, intList(arg(1)));
        } else {
            PTE_TRY(const double d, scalar(arg(1)));
            dims.push_back(std::int64_t(d));
        }
        const auto rank = std::int64_t(self->sizes.size());
        std::vector<bool> drop(self->sizes.size(), false);
        for (auto d : dims) {
            if (rank == 0)
                continue;
            if (d < -rank || d >= rank)
                return fail(ErrorCode::InvalidInput, where() + ": squeeze dimension out of range");
            d = (d + rank) % rank;
            drop[std::size_t(d)] = self->sizes[std::size_t(d)] == 1;
        }
        std::vector<std::int64_t> shape;
        for (std::size_t k = 0; k < self->sizes.size(); ++k)
            if (!drop[k])
                shape.push_back(self->sizes[k]);
        return gather(*self, *out, shape, [](std::size_t e) { return e; });
    }

    // [self, dim, out, ret]
    Result<void> unsqueezeCopy()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(const double dimD, scalar(arg(1)));
        PTE_TRY(auto out, tensor(arg(2)));
        const auto rank = std::int64_t(self->sizes.size()) + 1;
        auto dim = std::int64_t(dimD);
        if (dim < -rank || dim >= rank)
            return fail(ErrorCode::InvalidInput, where() + ": unsqueeze dimension out of range");
        dim = (dim + rank) % rank;
        std::vector<std::int64_t> shape = self->sizes;
        shape.insert(shape.begin() + std::ptrdiff_t(dim), 1);
        return gather(*self, *out, shape, [](std::size_t e) { return e; });
    }

    Result<void> splitCopy()
    {
        // split_copy: [self, split_size, dim, out(TensorList), ret]; split_with_sizes_copy: [self, split_sizes,
        // dim, out, ret]; unbind_copy: [self, dim, out, ret]
        const bool unbind = name == "unbind_copy";
        PTE_CHECK(need(unbind ? 4 : 5));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(const double dimD, scalar(arg(unbind ? 1 : 2)));
        PTE_TRY(const auto outs, tensorList(arg(unbind ? 2 : 3)));
        const auto dimOrNone = dimIndex(dimD, std::int64_t(self->sizes.size()));
        if (!dimOrNone)
            return fail(ErrorCode::InvalidInput, where() + ": " + op + ": dimension out of range");
        const std::size_t dim = *dimOrNone;
        const std::int64_t len = self->sizes[dim];
        std::vector<std::int64_t> pieces;
        if (unbind) {
            pieces.assign(std::size_t(len), 1);
        } else if (name == "split_copy") {
            PTE_TRY(const double chunk, scalar(arg(1)));
            for (std::int64_t s = 0; s < len; s += std::int64_t(chunk))
                pieces.push_back(std::min(std::int64_t(chunk), len - s));
        } else {
            PTE_TRY(pieces, intList(arg(1)));
        }
        if (pieces.size() != outs.size())
            return fail(ErrorCode::InvalidInput,
                where() + ": " + op + ": " + std::to_string(outs.size()) + " outputs for "
                    + std::to_string(pieces.size()) + " pieces");
        std::int64_t start = 0;
        for (std::size_t p = 0; p < pieces.size(); ++p) {
            PTE_CHECK(sliceDim(*self, *outs[p], dim, start, 1, pieces[p], !unbind));
            start += pieces[p];
        }
        if (start != len)
            return fail(ErrorCode::InvalidInput, where() + ": " + op + ": the pieces do not cover the dimension");
        return {};
    }

    // [self, dim, start?, end?, step, out, ret]
    Result<void> sliceCopy()
    {
        PTE_CHECK(need(7));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(const double dimD, scalar(arg(1)));
        PTE_TRY(const double stepD, scalar(arg(4)));
        PTE_TRY(auto out, tensor(arg(5)));
        const auto dimOrNone = dimIndex(dimD, std::int64_t(self->sizes.size()));
        if (!dimOrNone || stepD < 1)
            return fail(ErrorCode::InvalidInput, where() + ": slice_copy: bad dimension or step");
        const std::size_t dim = *dimOrNone;
        const std::int64_t len = self->sizes[dim];
        auto clampIndex = [&](std::int64_t id, std::int64_t fallback) -> Result<std::int64_t> {
            if (isNull(id))
                return fallback;
            PTE_TRY(const double v, scalar(id));
            if (v >= double(len))
                return len; // torch.export writes x[a:] with end = INT64_MAX
            auto x = std::int64_t(v);
            if (x < 0)
                x += len;
            return std::clamp<std::int64_t>(x, 0, len);
        };
        PTE_TRY(const auto start, clampIndex(arg(2), 0));
        PTE_TRY(auto end, clampIndex(arg(3), len));
        end = std::max(end, start);
        const auto step = std::int64_t(stepD);
        return sliceDim(*self, *out, dim, start, step, (end - start + step - 1) / step, true);
    }

    // [self, size, implicit, out, ret]
    Result<void> expandCopy()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(auto size, intList(arg(1)));
        PTE_TRY(auto out, tensor(arg(3)));
        if (size.size() < self->sizes.size())
            return fail(ErrorCode::InvalidInput, where() + ": expand_copy to fewer dimensions");
        const std::size_t lead = size.size() - self->sizes.size();
        for (std::size_t k = 0; k < self->sizes.size(); ++k) {
            if (size[lead + k] == -1)
                size[lead + k] = self->sizes[k];
            if (self->sizes[k] != 1 && self->sizes[k] != size[lead + k])
                return fail(ErrorCode::InvalidInput, where() + ": expand_copy: size does not broadcast");
        }
        return gather(*self, *out, size, [&](std::size_t e) { return broadcastIndex(size, self->sizes, e); });
    }

    // [self, dim0, dim1, out, ret]
    Result<void> transposeCopy()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(const double d0D, scalar(arg(1)));
        PTE_TRY(const double d1D, scalar(arg(2)));
        PTE_TRY(auto out, tensor(arg(3)));
        const auto rank = std::int64_t(self->sizes.size());
        const auto d0 = std::size_t((std::int64_t(d0D) + rank) % std::max<std::int64_t>(rank, 1));
        const auto d1 = std::size_t((std::int64_t(d1D) + rank) % std::max<std::int64_t>(rank, 1));
        std::vector<std::int64_t> shape = self->sizes;
        std::swap(shape[d0], shape[d1]);
        std::vector<std::size_t> inStride = contiguousStrides<std::size_t>(self->sizes);
        std::swap(inStride[d0], inStride[d1]);
        return gather(*self, *out, shape, [&](std::size_t e) {
            std::size_t index = 0;
            for (std::size_t k = shape.size(); k-- > 0;) {
                index += (e % std::size_t(shape[k])) * inStride[k];
                e /= std::size_t(shape[k]);
            }
            return index;
        });
    }

    // [tensors, dim, out, ret]
    Result<void> cat()
    {
        PTE_TRY(const auto joined, listArgs(0));
        const auto& [parts, dim, out] = joined;
        std::vector<std::int64_t> shape = parts[0]->sizes;
        shape[dim] = 0;
        for (const auto& p : parts) {
            if (p->sizes.size() != shape.size())
                return fail(ErrorCode::InvalidInput, where() + ": cat of tensors of different ranks");
            shape[dim] += p->sizes[dim];
        }
        PTE_CHECK(resize(*out, shape));
        const std::size_t inner = numelFrom(shape, dim + 1);
        const std::size_t outer = out->numel() / std::max<std::size_t>(std::size_t(shape[dim]) * inner, 1);
        std::size_t e = 0;
        for (std::size_t o = 0; o < outer; ++o)
            for (const auto& p : parts)
                for (std::size_t k = 0; k < std::size_t(p->sizes[dim]) * inner; ++k)
                    out->set(e++, p->get(o * std::size_t(p->sizes[dim]) * inner + k));
        return {};
    }

    // [self, pad, value, out, ret]; pad pairs from the last dimension
    Result<void> constantPadNd()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto self, tensor(arg(0)));
        PTE_TRY(const auto pad, intList(arg(1)));
        PTE_TRY(const double value, scalar(arg(2)));
        PTE_TRY(auto out, tensor(arg(3)));
        const std::size_t rank = self->sizes.size();
        if (pad.size() % 2 != 0 || pad.size() / 2 > rank)
            return fail(ErrorCode::InvalidInput, where() + ": constant_pad_nd: bad pad length");
        std::vector<std::int64_t> before(rank, 0);
        std::vector<std::int64_t> shape = self->sizes;
        for (std::size_t k = 0; k < pad.size() / 2; ++k) {
            const std::size_t d = rank - 1 - k;
            before[d] = pad[2 * k];
            shape[d] += pad[2 * k] + pad[2 * k + 1];
        }
        PTE_CHECK(resize(*out, shape));
        std::vector<double> r(out->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            std::size_t rest = e;
            std::size_t index = 0;
            std::size_t stride = 1;
            bool inside = true;
            for (std::size_t k = rank; k-- > 0;) {
                const auto coord = std::int64_t(rest % std::size_t(shape[k])) - before[k];
                rest /= std::size_t(shape[k]);
                inside = inside && coord >= 0 && coord < self->sizes[k];
                index += std::size_t(std::max<std::int64_t>(coord, 0)) * stride;
                stride *= std::size_t(self->sizes[k]);
            }
            r[e] = inside ? self->get(index) : value;
        }
        store(*out, r);
        return {};
    }

    // [tensors, dim, out, ret]
    Result<void> stack()
    {
        PTE_TRY(const auto stacked, listArgs(1));
        const auto& [parts, dim, out] = stacked;
        std::vector<std::int64_t> shape = parts[0]->sizes;
        for (const auto& p : parts)
            if (p->sizes != shape)
                return fail(ErrorCode::InvalidInput, where() + ": stack of tensors of different shapes");
        const std::size_t inner = numelFrom(shape, dim);
        shape.insert(shape.begin() + std::ptrdiff_t(dim), std::int64_t(parts.size()));
        PTE_CHECK(resize(*out, shape));
        const std::size_t outer = parts[0]->numel() / std::max<std::size_t>(inner, 1);
        std::size_t e = 0;
        for (std::size_t o = 0; o < outer; ++o)
            for (const auto& p : parts)
                for (std::size_t k = 0; k < inner; ++k)
                    out->set(e++, p->get(o * inner + k));
        return {};
    }

    // [self, src, non_blocking, out, ret]: src broadcast to self's shape
    Result<void> copyOut()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto self, tensorAt(0));
        PTE_TRY(auto src, tensorAt(1));
        PTE_TRY(auto o, tensorAt(3));
        if (broadcastShape(self->sizes, src->sizes) != self->sizes && !self->sizes.empty())
            return invalid("src does not broadcast to self");
        PTE_CHECK(d.resize(*o, self->sizes));
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e)
            r[e] = src->get(broadcastIndex(self->sizes, src->sizes, e));
        store(*o, r);
        return {};
    }

    // [self, dims, out, ret]
    Result<void> flip()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const auto dims, d.intList(arg(1)));
        PTE_TRY(auto o, tensorAt(2));
        std::vector<bool> flip(x->sizes.size(), false);
        for (const auto dim : dims) {
            const auto k = dimIndex(double(dim), std::int64_t(x->sizes.size()));
            if (!k)
                return invalid("dimension out of range");
            flip[*k] = true;
        }
        PTE_CHECK(d.resize(*o, x->sizes));
        std::vector<double> r(x->numel());
        const auto strides = contiguousStrides<std::size_t>(x->sizes);
        for (std::size_t e = 0; e < r.size(); ++e) {
            std::size_t at = 0;
            for (std::size_t k = 0; k < x->sizes.size(); ++k) {
                auto c = e / strides[k] % std::size_t(x->sizes[k]);
                if (flip[k])
                    c = std::size_t(x->sizes[k]) - 1 - c;
                at += c * strides[k];
            }
            r[e] = x->get(at);
        }
        store(*o, r);
        return {};
    }

    // [self, repeats, out, ret]: tiles; repeats may add leading dimensions
    Result<void> repeat()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const auto repeats, d.intList(arg(1)));
        PTE_TRY(auto o, tensorAt(2));
        if (repeats.size() < x->sizes.size())
            return invalid("fewer repeats than dimensions");
        const std::size_t lead = repeats.size() - x->sizes.size();
        std::vector<std::int64_t> in(lead, 1);
        in.insert(in.end(), x->sizes.begin(), x->sizes.end());
        std::vector<std::int64_t> shape(repeats.size());
        for (std::size_t k = 0; k < shape.size(); ++k)
            shape[k] = in[k] * repeats[k];
        PTE_CHECK(d.resize(*o, shape));
        const auto os = contiguousStrides<std::size_t>(shape);
        const auto is = contiguousStrides<std::size_t>(in);
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            std::size_t at = 0;
            for (std::size_t k = 0; k < shape.size(); ++k)
                at += (e / os[k] % std::size_t(shape[k])) % std::size_t(std::max<std::int64_t>(in[k], 1)) * is[k];
            r[e] = x->get(at);
        }
        store(*o, r);
        return {};
    }

    // [self, offset, dim1, dim2, out, ret]
    Result<void> diagonalCopy()
    {
        PTE_CHECK(need(6));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const double offsetD, scalarAt(1));
        PTE_TRY(const auto d1, dimArg(2, x->sizes.size()));
        PTE_TRY(const auto d2, dimArg(3, x->sizes.size()));
        PTE_TRY(auto o, tensorAt(4));
        if (d1 == d2)
            return invalid("dim1 and dim2 are the same");
        const auto offset = std::int64_t(offsetD);
        const std::int64_t n = std::max<std::int64_t>(
            offset >= 0 ? std::min(x->sizes[d1], x->sizes[d2] - offset) : std::min(x->sizes[d1] + offset, x->sizes[d2]),
            0);
        std::vector<std::int64_t> shape;
        std::vector<std::size_t> keep;
        for (std::size_t k = 0; k < x->sizes.size(); ++k)
            if (k != d1 && k != d2) {
                shape.push_back(x->sizes[k]);
                keep.push_back(k);
            }
        shape.push_back(n);
        PTE_CHECK(d.resize(*o, shape));
        const auto xs = contiguousStrides<std::size_t>(x->sizes);
        const auto os = contiguousStrides<std::size_t>(shape);
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            std::size_t at = 0;
            for (std::size_t j = 0; j < keep.size(); ++j)
                at += (e / os[j] % std::size_t(shape[j])) * xs[keep[j]];
            const auto i = std::int64_t(e % std::size_t(std::max<std::int64_t>(n, 1)));
            at += std::size_t(i + (offset < 0 ? -offset : 0)) * xs[d1]
                + std::size_t(i + (offset > 0 ? offset : 0)) * xs[d2];
            r[e] = x->get(at);
        }
        store(*o, r);
        return {};
    }

    // [self, dimension, size, step, out, ret]
    Result<void> unfoldCopy()
    {
        PTE_CHECK(need(6));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const auto dim, dimArg(1, x->sizes.size()));
        PTE_TRY(const double sizeD, scalarAt(2));
        PTE_TRY(const double stepD, scalarAt(3));
        PTE_TRY(auto o, tensorAt(4));
        const auto size = std::int64_t(sizeD);
        const auto step = std::int64_t(stepD);
        const std::int64_t len = x->sizes.empty() ? 1 : x->sizes[dim];
        if (size < 0 || size > len || step <= 0)
            return invalid("size or step out of range");
        const std::int64_t windows = (len - size) / step + 1;
        std::vector<std::int64_t> shape = x->sizes;
        if (!shape.empty())
            shape[dim] = windows;
        shape.push_back(size);
        PTE_CHECK(d.resize(*o, shape));
        const auto xs = contiguousStrides<std::size_t>(x->sizes);
        const auto os = contiguousStrides<std::size_t>(shape);
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            std::size_t at = 0;
            for (std::size_t k = 0; k < x->sizes.size(); ++k) {
                auto c = e / os[k] % std::size_t(shape[k]);
                if (k == dim)
                    c = c * std::size_t(step) + e % std::size_t(std::max<std::int64_t>(size, 1));
                at += c * xs[k];
            }
            r[e] = x->get(at);
        }
        store(*o, r);
        return {};
    }

    // [self, size, stride, storage_offset?, out, ret] over self's elements
    Result<void> asStridedCopy()
    {
        PTE_CHECK(need(6));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const auto size, d.intList(arg(1)));
        PTE_TRY(const auto stride, d.intList(arg(2)));
        PTE_TRY(auto o, tensorAt(4));
        std::int64_t offset = 0;
        if (!d.isNull(arg(3))) {
            PTE_TRY(const double v, scalarAt(3));
            offset = std::int64_t(v);
        }
        if (size.size() != stride.size())
            return invalid("size and stride differ in length");
        PTE_CHECK(d.resize(*o, size));
        const auto os = contiguousStrides<std::size_t>(size);
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            std::int64_t at = offset;
            for (std::size_t k = 0; k < size.size(); ++k)
                at += std::int64_t(e / os[k] % std::size_t(size[k])) * stride[k];
            if (at < 0 || std::size_t(at) >= x->numel())
                return invalid("the strides reach outside self");
            r[e] = x->get(std::size_t(at));
        }
        store(*o, r);
        return {};
    }
    // [self, diagonal, out, ret]: the elements of the last two dimensions with column - row <= diagonal, others 0
    Result<void> tril()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const double diagonal, scalarAt(1));
        PTE_TRY(auto out, tensorAt(2));
        if (x->sizes.size() < 2)
            return invalid("needs at least 2 dimensions");
        PTE_CHECK(resize(*out, x->sizes));
        const auto cols = std::size_t(x->sizes.back());
        const auto rows = std::size_t(x->sizes[x->sizes.size() - 2]);
        std::vector<double> r(x->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            const auto col = double(e % cols);
            const auto row = double((e / cols) % rows);
            r[e] = col - row <= diagonal ? x->get(e) : 0.0;
        }
        store(*out, r);
        return {};
    }

    // [self, shifts, dims, out, ret]: element i of a dimension moves to (i + shift) mod size; without dims over the
    // flattened tensor
    Result<void> roll()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const auto shifts, intList(arg(1)));
        PTE_TRY(const auto dims, intList(arg(2)));
        PTE_TRY(auto out, tensorAt(3));
        PTE_CHECK(resize(*out, x->sizes));
        const std::size_t n = x->numel();
        std::vector<double> r(n);
        if (dims.empty()) {
            if (shifts.size() != 1)
                return invalid("needs one shift without dims");
            for (std::size_t e = 0; e < n; ++e)
                r[std::size_t(((std::int64_t(e) + shifts[0]) % std::int64_t(n) + std::int64_t(n)) % std::int64_t(n))] =
                    x->get(e);
            store(*out, r);
            return {};
        }
        if (dims.size() != shifts.size())
            return invalid("shifts and dims differ in length");
        const std::size_t rank = x->sizes.size();
        std::vector<std::int64_t> shift(rank, 0);
        for (std::size_t k = 0; k < dims.size(); ++k) {
            const auto dim = dimIndex(double(dims[k]), std::int64_t(rank));
            if (!dim)
                return invalid("dimension out of range");
            shift[*dim] += shifts[k];
        }
        const auto stride = contiguousStrides<std::size_t>(x->sizes);
        for (std::size_t e = 0; e < n; ++e) {
            std::size_t to = 0;
            for (std::size_t k = 0; k < rank; ++k) {
                const auto size = x->sizes[k];
                const auto coord = std::int64_t(e / stride[k]) % size;
                to += std::size_t(((coord + shift[k]) % size + size) % size) * stride[k];
            }
            r[to] = x->get(e);
        }
        store(*out, r);
        return {};
    }

    // [self, dim, start, length, out, ret]: positions start .. start + length of dim (a negative start counts back)
    Result<void> narrowCopy()
    {
        PTE_CHECK(need(6));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const std::size_t dim, dimArg(1, x->sizes.size()));
        PTE_TRY(const double startD, scalarAt(2));
        PTE_TRY(const double length, scalarAt(3));
        PTE_TRY(auto out, tensorAt(4));
        if (x->sizes.empty())
            return invalid("of a 0-D tensor");
        auto start = std::int64_t(startD);
        if (start < 0)
            start += x->sizes[dim];
        return sliceDim(*x, *out, dim, start, 1, std::int64_t(length), true);
    }

    // [self, out, ret]: a 2-D tensor transposed; fewer dimensions copied
    Result<void> tCopy()
    {
        PTE_CHECK(need(3));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto out, tensorAt(1));
        if (x->sizes.size() > 2)
            return invalid("needs at most 2 dimensions");
        if (x->sizes.size() < 2)
            return gather(*x, *out, x->sizes, [](std::size_t e) { return e; });
        const auto rows = std::size_t(x->sizes[0]);
        const auto cols = std::size_t(x->sizes[1]);
        return gather(
            *x, *out, { x->sizes[1], x->sizes[0] }, [&](std::size_t e) { return (e % rows) * cols + e / rows; });
    }

    // reflection_pad{1,2,3}d / replication_pad{1,2,3}d [self, padding, out, ret]: the last 1, 2 or 3 dimensions
    // padded (padding pairs from the last dimension) by reflecting about the edge element or repeating it
    Result<void> pad()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const auto padding, intList(arg(1)));
        PTE_TRY(auto out, tensorAt(2));
        const bool reflect = name.rfind("reflection", 0) == 0;
        const std::size_t padded = std::size_t(name[name.size() - 2] - '0');
        const std::size_t rank = x->sizes.size();
        if (padding.size() != 2 * padded || rank < padded)
            return invalid("bad padding");
        std::vector<std::int64_t> before(rank, 0);
        std::vector<std::int64_t> shape = x->sizes;
        for (std::size_t k = 0; k < padded; ++k) {
            const std::size_t dim = rank - 1 - k;
            before[dim] = padding[2 * k];
            shape[dim] += padding[2 * k] + padding[2 * k + 1];
            if (reflect && (padding[2 * k] >= x->sizes[dim] || padding[2 * k + 1] >= x->sizes[dim]))
                return invalid("reflection padding not smaller than the dimension");
            if (shape[dim] < 0)
                return invalid("padding leaves dimension " + std::to_string(dim) + " a negative size");
            if (x->sizes[dim] == 0 && shape[dim] > 0) // nothing to replicate (torch refuses it too)
                return invalid("replication padding of dimension " + std::to_string(dim) + ", which is empty");
        }
        PTE_CHECK(resize(*out, shape));
        const auto inStride = contiguousStrides<std::size_t>(x->sizes);
        const auto outStride = contiguousStrides<std::size_t>(shape);
        std::vector<double> r(out->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            std::size_t from = 0;
            for (std::size_t k = 0; k < rank; ++k) {
                const auto size = x->sizes[k];
                auto coord = std::int64_t(e / outStride[k]) % shape[k] - before[k];
                if (reflect)
                    coord = coord < 0 ? -coord : coord >= size ? 2 * (size - 1) - coord : coord;
                else
                    coord = std::clamp<std::int64_t>(coord, 0, size - 1);
                from += std::size_t(coord) * inStride[k];
            }
            r[e] = x->get(from);
        }
        store(*out, r);
        return {};
    }

    // pixel_shuffle [self, upscale_factor, out, ret]: [..., C * r * r, H, W] -> [..., C, H * r, W * r], out[c, h * r +
    // i, w * r + j] = in[c * r * r + i * r + j, h, w]; pixel_unshuffle [self, downscale_factor, out, ret] the inverse
    Result<void> pixelShuffle()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const double factor, scalarAt(1));
        PTE_TRY(auto out, tensorAt(2));
        const bool shuffle = name == "pixel_shuffle";
        const auto f = std::int64_t(factor);
        const std::size_t rank = x->sizes.size();
        if (rank < 3 || f <= 0)
            return invalid("needs at least 3 dimensions and a positive factor");
        std::vector<std::int64_t> shape = x->sizes;
        auto& C = shape[rank - 3];
        auto& H = shape[rank - 2];
        auto& W = shape[rank - 1];
        if (shuffle) {
            if (C % (f * f) != 0)
                return invalid("channels not divisible by the factor squared");
            C /= f * f;
            H *= f;
            W *= f;
        } else {
            if (H % f != 0 || W % f != 0)
                return invalid("height or width not divisible by the factor");
            C *= f * f;
            H /= f;
            W /= f;
        }
        PTE_CHECK(resize(*out, shape));
        // The shuffled side's coordinates (c, y, x) with the unshuffled side's (c * f * f + (y % f) * f + x % f,
        // y / f, x / f).
        const auto sc = shuffle ? shape[rank - 3] : x->sizes[rank - 3];
        const auto sh = shuffle ? shape[rank - 2] : x->sizes[rank - 2];
        const auto sw = shuffle ? shape[rank - 1] : x->sizes[rank - 1];
        const std::size_t plane = std::size_t(sc * sh * sw);
        std::vector<double> r(out->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            const std::size_t batch = e / plane;
            const auto rest = std::int64_t(e % plane);
            const auto c = rest / (sh * sw);
            const auto y = (rest / sw) % sh;
            const auto xx = rest % sw;
            const auto uc = c * f * f + (y % f) * f + xx % f;
            const auto uy = y / f;
            const auto ux = xx / f;
            const std::size_t unshuffled = batch * plane + std::size_t((uc * (sh / f) + uy) * (sw / f) + ux);
            if (shuffle)
                r[e] = x->get(unshuffled);
            else
                r[unshuffled] = x->get(e);
        }
        store(*out, r);
        return {};
    }
};

} // namespace

void registerShapeKernels(KernelRegistry& registry)
{
    using F = Shape;
    registry.add("aten::clone.out", invoke<F, &F::clone>);
    registry.add("aten::alias_copy.out", invoke<F, &F::aliasCopy>);
    registry.add("aten::detach_copy.out", invoke<F, &F::aliasCopy>);
    registry.add("aten::lift_fresh_copy.out", invoke<F, &F::aliasCopy>);
    registry.add("aten::copy_", invoke<F, &F::copy>);
    registry.add("aten::permute_copy.out", invoke<F, &F::permuteCopy>);
    registry.add("aten::view_copy.out", invoke<F, &F::viewCopy>);
    registry.add("aten::view_as_real_copy.out", invoke<F, &F::viewAsRealCopy>, true);
    registry.add("aten::select_copy.int_out", invoke<F, &F::selectCopy>);
    registry.add("aten::squeeze_copy.dims_out", invoke<F, &F::squeezeCopy>);
    registry.add("aten::squeeze_copy.dim_out", invoke<F, &F::squeezeCopy>);
    registry.add("aten::unsqueeze_copy.out", invoke<F, &F::unsqueezeCopy>);
    registry.add("aten::split_copy.Tensor_out", invoke<F, &F::splitCopy>);
    registry.add("aten::split_with_sizes_copy.out", invoke<F, &F::splitCopy>);
    registry.add("aten::unbind_copy.int_out", invoke<F, &F::splitCopy>);
    registry.add("aten::slice_copy.Tensor_out", invoke<F, &F::sliceCopy>);
    registry.add("aten::expand_copy.out", invoke<F, &F::expandCopy>);
    registry.add("aten::transpose_copy.int_out", invoke<F, &F::transposeCopy>);
    registry.add("aten::cat.out", invoke<F, &F::cat>);
    registry.add("aten::constant_pad_nd.out", invoke<F, &F::constantPadNd>);
    registry.add("aten::stack.out", invoke<F, &F::stack>);
    registry.add("aten::copy.out", invoke<F, &F::copyOut>);
    registry.add("aten::flip.out", invoke<F, &F::flip>);
    registry.add("aten::repeat.out", invoke<F, &F::repeat>);
    registry.add("aten::diagonal_copy.out", invoke<F, &F::diagonalCopy>);
    registry.add("aten::unfold_copy.out", invoke<F, &F::unfoldCopy>);
    registry.add("aten::as_strided_copy.out", invoke<F, &F::asStridedCopy>);
    registry.add("aten::tril.out", invoke<F, &F::tril>);
    registry.add("aten::roll.out", invoke<F, &F::roll>);
    registry.add("aten::narrow_copy.out", invoke<F, &F::narrowCopy>);
    registry.add("aten::t_copy.out", invoke<F, &F::tCopy>);
    for (const char* kind : { "reflection", "replication" })
        for (const char* dims : { "1d", "2d", "3d" })
            registry.add(std::string("aten::") + kind + "_pad" + dims + ".out", invoke<F, &F::pad>);
    registry.add("aten::pixel_shuffle.out", invoke<F, &F::pixelShuffle>);
    registry.add("aten::pixel_unshuffle.out", invoke<F, &F::pixelShuffle>);
}

} // namespace pte::interp
