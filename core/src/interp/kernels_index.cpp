// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Indexing and scattering: index_select, gather/scatter, embedding, index/index_put, masked_scatter, slice_scatter.
#include "interp/kernel.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pte::interp {

namespace {

struct Index : Kernel
{
    using Kernel::Kernel;

    // [self, dim, index, out, ret]
    Result<void> indexSelect()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const auto dim, dimArg(1, x->sizes.size()));
        PTE_TRY(auto index, tensorAt(2));
        PTE_TRY(auto o, tensorAt(3));
        std::vector<std::int64_t> shape = x->sizes;
        const std::size_t len = shape.empty() ? 1 : std::size_t(shape[dim]);
        if (!shape.empty())
            shape[dim] = std::int64_t(index->numel());
        PTE_CHECK(d.resize(*o, shape));
        const std::size_t n = index->numel();
        const std::size_t inner = x->sizes.empty() ? 1 : numelFrom(x->sizes, dim + 1);
        std::vector<double> r(o->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            const std::size_t outer = e / (n * inner);
            const std::size_t j = (e / inner) % n;
            auto at = asInt(index->get(j));
            at = at < 0 ? at + std::int64_t(len) : at;
            if (at < 0 || std::size_t(at) >= len)
                return invalid("index " + std::to_string(asInt(index->get(j))) + " out of range");
            r[e] = x->get((outer * len + std::size_t(at)) * inner + e % inner);
        }
        store(*o, r);
        return {};
    }

    Result<void> gatherScatter()
    {
        // gather: [self, dim, index, sparse_grad, out, ret]: out[..i..] = self[..index[..i..]..] along dim;
        // scatter.src_out / scatter_add: [self, dim, index, src, out, ret]: out = self, out[..index..] (+)= src;
        // scatter.value_out: [self, dim, index, value, out, ret]
        const bool isGather = name == "gather";
        PTE_CHECK(need(6));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(const auto dim, dimArg(1, x->sizes.size()));
        PTE_TRY(auto index, tensorAt(2));
        PTE_TRY(auto o, tensorAt(4));
        // torch's rules for gather and scatter (a 0-d tensor counts as 1-d of size 1): index has self's rank and is no
        // larger than self in any dimension but dim
        const auto rankOf = [](const TensorState& t) { return std::max<std::size_t>(t.sizes.size(), 1); };
        const auto sizeOf = [](const TensorState& t, std::size_t k) { return t.sizes.empty() ? 1 : t.sizes[k]; };
        if (rankOf(*index) != rankOf(*x))
            return invalid("index and self have different ranks");
        for (std::size_t k = 0; k < index->sizes.size(); ++k)
            if (k != dim && index->sizes[k] > sizeOf(*x, k))
                return invalid("index is larger than self in dimension " + std::to_string(k));
        const std::vector<std::size_t> xs = contiguousStrides<std::size_t>(x->sizes);
        const auto strideOf = [](const std::vector<std::size_t>& strides, std::size_t k) {
            return strides.empty() ? std::size_t(1) : strides[k];
        };
        auto position = [&](std::size_t e) -> Result<std::size_t> { // index element e -> its place in self
            std::size_t rest = e;
            std::size_t at = 0;
            for (std::size_t k = index->sizes.size(); k-- > 0;) {
                const auto coord = rest % std::size_t(index->sizes[k]);
                rest /= std::size_t(index->sizes[k]);
                std::int64_t c = std::int64_t(coord);
                if (k == dim) {
                    c = asInt(index->get(e));
                    c = c < 0 ? c + sizeOf(*x, k) : c;
                }
                if (c < 0 || c >= sizeOf(*x, k))
                    return invalid("index " + std::to_string(asInt(index->get(e))) + " out of range");
                at += std::size_t(c) * strideOf(xs, k);
            }
            return at;
        };
        if (isGather) {
            PTE_CHECK(d.resize(*o, index->sizes));
            std::vector<double> r(index->numel());
            for (std::size_t e = 0; e < r.size(); ++e) {
                PTE_TRY(const auto at, position(e));
                r[e] = x->get(at);
            }
            store(*o, r);
            return {};
        }
        std::shared_ptr<TensorState> src;
        double value = 0;
        if (overload == "value_out") {
            PTE_TRY(value, scalarAt(3));
        } else {
            PTE_TRY(src, tensorAt(3));
            // ... and no larger than src in any dimension (src is read at index's coordinates)
            if (rankOf(*src) != rankOf(*index))
                return invalid("index and src have different ranks");
            for (std::size_t k = 0; k < index->sizes.size(); ++k)
                if (index->sizes[k] > sizeOf(*src, k))
                    return invalid("index is larger than src in dimension " + std::to_string(k));
        }
        PTE_CHECK(d.resize(*o, x->sizes));
        std::vector<double> r(x->numel());
        for (std::size_t e = 0; e < r.size(); ++e)
            r[e] = x->get(e);
        const std::vector<std::size_t> ss =
            src ? contiguousStrides<std::size_t>(src->sizes) : std::vector<std::size_t>();
        const std::vector<std::size_t> is = contiguousStrides<std::size_t>(index->sizes);
        for (std::size_t e = 0; e < index->numel(); ++e) {
            PTE_TRY(const auto at, position(e));
            double v = value;
            if (src) { // the same coordinates in src (src may be larger than index)
                std::size_t s = 0;
                for (std::size_t k = 0; k < index->sizes.size(); ++k)
                    s += (e / is[k] % std::size_t(index->sizes[k])) * strideOf(ss, k);
                v = src->get(s);
            }
            r[at] = name == "scatter_add" ? r[at] + v : v;
        }
        store(*o, r);
        return {};
    }

    // [weight, indices, padding_idx, scale_grad_by_freq, sparse, out, ret]
    Result<void> embedding()
    {
        PTE_CHECK(need(7));
        PTE_TRY(auto w, tensorAt(0));
        PTE_TRY(auto indices, tensorAt(1));
        PTE_TRY(auto o, tensorAt(5));
        if (w->sizes.size() != 2)
            return invalid("the weight is not 2-D");
        const auto rows = w->sizes[0];
        const auto cols = std::size_t(w->sizes[1]);
        std::vector<std::int64_t> shape = indices->sizes;
        shape.push_back(std::int64_t(cols));
        PTE_CHECK(d.resize(*o, shape));
        std::vector<double> r(o->numel());
        for (std::size_t i = 0; i < indices->numel(); ++i) {
            const auto row = asInt(indices->get(i));
            if (row < 0 || row >= rows)
                return invalid("index " + std::to_string(row) + " out of range");
            for (std::size_t c = 0; c < cols; ++c)
                r[i * cols + c] = w->get(std::size_t(row) * cols + c);
        }
        store(*o, r);
        return {};
    }

    Result<void> index()
    {
        // index: [self, indices (Tensor?[]), out, ret]; index_put: [self, indices, values, accumulate, out, ret].
        // Advanced indexing: Long index tensors broadcast together, Bool masks stand for their nonzero positions; the
        // indexed dimensions become the broadcast shape, in place when the index tensors are adjacent, else in front.
        const bool put = name == "index_put";
        PTE_CHECK(need(put ? 6 : 4));
        PTE_TRY(auto x, tensorAt(0));
        const auto listId = arg(1);
        if (listId < 0 || std::size_t(listId) >= d.slots.size()
            || (d.slots[std::size_t(listId)].kind != ValueKind::OptionalTensorList
                && d.slots[std::size_t(listId)].kind != ValueKind::TensorList))
            return invalid("indices is not a tensor list");
        // Per dimension of self: its index tensor (after expanding masks), or none.
        std::vector<std::vector<std::int64_t>> idxValues; // per indexed dimension: the positions
        std::vector<std::vector<std::int64_t>> idxShapes;
        std::vector<std::size_t> idxDims;
        std::size_t dimCursor = 0;
        for (const auto item : d.slots[std::size_t(listId)].ids) {
            if (item < 0 || d.isNull(item)) {
                ++dimCursor;
                continue;
            }
            PTE_TRY(auto t, d.tensor(item));
            if (t->dtype == ScalarType::Bool || t->dtype == ScalarType::Byte) {
                // A mask over the next t->rank dimensions: one index tensor per dimension, of its nonzero count.
                const std::size_t rank = t->sizes.size();
                std::vector<std::vector<std::int64_t>> coords(rank);
                const auto strides = contiguousStrides<std::size_t>(t->sizes);
                for (std::size_t e = 0; e < t->numel(); ++e)
                    if (t->get(e) != 0)
                        for (std::size_t k = 0; k < rank; ++k)
                            coords[k].push_back(std::int64_t(e / strides[k] % std::size_t(t->sizes[k])));
                for (std::size_t k = 0; k < rank; ++k) {
                    const auto count = std::int64_t(coords[k].size());
                    idxValues.push_back(std::move(coords[k]));
                    idxShapes.push_back({ count });
                    idxDims.push_back(dimCursor++);
                }
                continue;
            }
            std::vector<std::int64_t> values(t->numel());
            for (std::size_t e = 0; e < values.size(); ++e)
                values[e] = asInt(t->get(e));
            idxValues.push_back(std::move(values));
            idxShapes.push_back(t->sizes);
            idxDims.push_back(dimCursor++);
        }
        if (idxDims.empty() || idxDims.back() >= std::max<std::size_t>(x->sizes.size(), 1))
            return invalid("too many indices for a " + std::to_string(x->sizes.size()) + "-D tensor");
        std::vector<std::int64_t> bshape = idxShapes.front();
        for (const auto& s : idxShapes) {
            auto b = broadcastShape(bshape, s);
            if (b.empty() && !(bshape.empty() && s.empty()))
                return invalid("the index tensors do not broadcast");
            bshape = std::move(b);
        }
        bool adjacent = true;
        for (std::size_t k = 1; k < idxDims.size(); ++k)
            adjacent = adjacent && idxDims[k] == idxDims[k - 1] + 1;
        // The result shape: self's dimensions, the indexed ones replaced by bshape.
        std::vector<std::int64_t> before, after;
        for (std::size_t k = 0; k < x->sizes.size(); ++k) {
            if (std::find(idxDims.begin(), idxDims.end(), k) != idxDims.end())
                continue;
            (adjacent && k < idxDims.front() ? before : after).push_back(x->sizes[k]);
        }
        std::vector<std::int64_t> shape = before;
        shape.insert(shape.end(), bshape.begin(), bshape.end());
        shape.insert(shape.end(), after.begin(), after.end());
        const std::size_t bnumel = numelFrom(bshape, 0);
        const std::size_t afterNumel = numelFrom(after, 0);
        const auto xs = contiguousStrides<std::size_t>(x->sizes);
        std::vector<std::size_t> rest; // the dimensions of self not indexed, in order
        for (std::size_t k = 0; k < x->sizes.size(); ++k)
            if (std::find(idxDims.begin(), idxDims.end(), k) == idxDims.end())
                rest.push_back(k);
        const std::size_t resultNumel = numelFrom(shape, 0);
        std::vector<std::size_t> places(resultNumel);
        for (std::size_t e = 0; e < resultNumel; ++e) {
            const std::size_t a0 = e % afterNumel;
            const std::size_t b = e / afterNumel % bnumel;
            const std::size_t p = e / (afterNumel * bnumel);
            // Unflatten the non-indexed coordinates: `before` (p) then `after` (a0), in self's order.
            std::vector<std::int64_t> coord(x->sizes.size(), 0);
            std::size_t pb = p, pa = a0;
            const std::size_t nBefore = before.size();
            for (std::size_t r = rest.size(); r-- > 0;) {
                const std::size_t k = rest[r];
                auto& src = r < nBefore ? pb : pa;
                coord[k] = std::int64_t(src % std::size_t(x->sizes[k]));
                src /= std::size_t(x->sizes[k]);
            }
            for (std::size_t j = 0; j < idxDims.size(); ++j) {
                auto v = idxValues[j][broadcastIndex(bshape, idxShapes[j], b)];
                const auto size = x->sizes[idxDims[j]];
                v = v < 0 ? v + size : v;
                if (v < 0 || v >= size)
                    return invalid("index " + std::to_string(idxValues[j][broadcastIndex(bshape, idxShapes[j], b)])
                        + " out of range for dimension " + std::to_string(idxDims[j]) + " of size "
                        + std::to_string(size));
                coord[idxDims[j]] = v;
            }
            std::size_t at = 0;
            for (std::size_t k = 0; k < coord.size(); ++k)
                at += std::size_t(coord[k]) * xs[k];
            places[e] = at;
        }
        if (!put) {
            PTE_TRY(auto o, tensorAt(2));
            PTE_CHECK(d.resize(*o, shape));
            std::vector<double> r(resultNumel);
            for (std::size_t e = 0; e < r.size(); ++e)
                r[e] = x->get(places[e]);
            store(*o, r);
            return {};
        }
        PTE_TRY(auto values, tensorAt(2));
        PTE_TRY(const double accumulate, scalarAt(3));
        PTE_TRY(auto o, tensorAt(4));
        if (broadcastShape(shape, values->sizes) != shape && !(shape.empty() && values->sizes.empty()))
            return invalid("values do not broadcast to the indexed shape");
        PTE_CHECK(d.resize(*o, x->sizes));
        std::vector<double> r(x->numel());
        for (std::size_t e = 0; e < r.size(); ++e)
            r[e] = x->get(e);
        for (std::size_t e = 0; e < resultNumel; ++e) {
            const double v = values->get(broadcastIndex(shape, values->sizes, e));
            r[places[e]] = accumulate != 0 ? r[places[e]] + v : v;
        }
        store(*o, r);
        return {};
    }

    // [self, mask, source, out, ret]: masked places take source in order
    Result<void> maskedScatter()
    {
        PTE_CHECK(need(5));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto mask, tensorAt(1));
        PTE_TRY(auto source, tensorAt(2));
        PTE_TRY(auto o, tensorAt(3));
        const auto shape = broadcastShape(x->sizes, mask->sizes);
        if (shape.empty() && !(x->sizes.empty() && mask->sizes.empty()))
            return invalid("the mask does not broadcast");
        PTE_CHECK(d.resize(*o, shape));
        std::vector<double> r(o->numel());
        std::size_t next = 0;
        for (std::size_t e = 0; e < r.size(); ++e) {
            r[e] = x->get(broadcastIndex(shape, x->sizes, e));
            if (mask->get(broadcastIndex(shape, mask->sizes, e)) != 0) {
                if (next >= source->numel())
                    return invalid("source has fewer elements than the mask selects");
                r[e] = source->get(next++);
            }
        }
        store(*o, r);
        return {};
    }

    // [self, src, dim, start?, end?, step, out, ret]
    Result<void> sliceScatter()
    {
        PTE_CHECK(need(8));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto src, tensorAt(1));
        PTE_TRY(const auto dim, dimArg(2, x->sizes.size()));
        PTE_TRY(const double stepD, scalarAt(5));
        PTE_TRY(auto o, tensorAt(6));
        const std::int64_t len = x->sizes.empty() ? 1 : x->sizes[dim];
        std::int64_t start = 0, end = len;
        if (!d.isNull(arg(3))) {
            PTE_TRY(const double v, scalarAt(3));
            start = std::int64_t(v);
        }
        if (!d.isNull(arg(4))) {
            PTE_TRY(const double v, scalarAt(4));
            end = std::int64_t(v);
        }
        const auto step = std::int64_t(stepD);
        if (step <= 0)
            return invalid("step must be positive");
        start = std::clamp(start < 0 ? start + len : start, std::int64_t(0), len);
        end = std::clamp(end < 0 ? end + len : end, start, len);
        const std::int64_t count = (end - start + step - 1) / step;
        std::vector<std::int64_t> srcShape = x->sizes;
        if (!srcShape.empty())
            srcShape[dim] = count;
        if (src->sizes != srcShape)
            return invalid("src does not have the slice's shape");
        PTE_CHECK(d.resize(*o, x->sizes));
        std::vector<double> r(x->numel());
        for (std::size_t e = 0; e < r.size(); ++e)
            r[e] = x->get(e);
        const std::size_t inner = x->sizes.empty() ? 1 : numelFrom(x->sizes, dim + 1);
        for (std::size_t e = 0; e < src->numel(); ++e) {
            const std::size_t outer = e / (std::size_t(count) * inner);
            const std::size_t k = e / inner % std::size_t(count);
            r[(outer * std::size_t(len) + std::size_t(start) + k * std::size_t(step)) * inner + e % inner] =
                src->get(e);
        }
        store(*o, r);
        return {};
    }
    // [self, src, dim, index, out, ret]: self with position index of dim replaced by src
    Result<void> selectScatter()
    {
        PTE_CHECK(need(6));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto src, tensorAt(1));
        PTE_TRY(const std::size_t dim, dimArg(2, x->sizes.size()));
        PTE_TRY(const double indexD, scalarAt(3));
        PTE_TRY(auto out, tensorAt(4));
        if (x->sizes.empty())
            return invalid("of a 0-D tensor");
        const auto len = x->sizes[dim];
        auto index = std::int64_t(indexD);
        if (index < 0)
            index += len;
        if (index < 0 || index >= len)
            return invalid("index out of range");
        const std::size_t inner = numelFrom(x->sizes, dim + 1);
        if (src->numel() != x->numel() / std::size_t(len))
            return invalid("src does not match the selected slice");
        PTE_CHECK(resize(*out, x->sizes));
        std::vector<double> r(x->numel());
        for (std::size_t e = 0; e < r.size(); ++e) {
            const std::size_t o = e / (std::size_t(len) * inner);
            const auto k = std::int64_t((e / inner) % std::size_t(len));
            r[e] = k == index ? src->get(o * inner + e % inner) : x->get(e);
        }
        store(*out, r);
        return {};
    }

    // [self, mask, out, ret]: the elements of self (broadcast with mask) where mask is true, as a 1-D tensor
    Result<void> maskedSelect()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto mask, tensorAt(1));
        PTE_TRY(auto out, tensorAt(2));
        const auto shape = broadcastShape(x->sizes, mask->sizes);
        if (shape.empty() && !(x->sizes.empty() && mask->sizes.empty()))
            return invalid("shapes do not broadcast");
        std::size_t n = 1;
        for (const auto s : shape)
            n *= std::size_t(s);
        std::vector<double> r;
        for (std::size_t e = 0; e < n; ++e)
            if (mask->get(broadcastIndex(shape, mask->sizes, e)) != 0)
                r.push_back(x->get(broadcastIndex(shape, x->sizes, e)));
        PTE_CHECK(resize(*out, { std::int64_t(r.size()) }));
        store(*out, r);
        return {};
    }

    // [self, out, ret]: the coordinates of the nonzero elements, [count, rank], in row-major order
    Result<void> nonzero()
    {
        PTE_CHECK(need(3));
        PTE_TRY(auto x, tensorAt(0));
        PTE_TRY(auto out, tensorAt(1));
        const std::size_t rank = x->sizes.size();
        const auto stride = contiguousStrides<std::size_t>(x->sizes);
        std::vector<double> r;
        std::int64_t count = 0;
        for (std::size_t e = 0; e < x->numel(); ++e) {
            if (x->get(e) == 0)
                continue;
            ++count;
            for (std::size_t k = 0; k < rank; ++k)
                r.push_back(double((e / stride[k]) % std::size_t(x->sizes[k])));
        }
        PTE_CHECK(resize(*out, { count, std::int64_t(rank) }));
        store(*out, r);
        return {};
    }

    // [repeats, output_size?, out, ret]: each index i repeated repeats[i] times
    Result<void> repeatInterleave()
    {
        PTE_CHECK(need(4));
        PTE_TRY(auto repeats, tensorAt(0));
        PTE_TRY(auto out, tensorAt(2));
        if (repeats->sizes.size() > 1)
            return invalid("repeats is not 1-D");
        std::vector<double> r;
        for (std::size_t i = 0; i < repeats->numel(); ++i) {
            const auto times = std::int64_t(repeats->get(i));
            if (times < 0)
                return invalid("a negative repeat");
            r.insert(r.end(), std::size_t(times), double(i));
        }
        if (!d.isNull(arg(1))) {
            PTE_TRY(const double size, scalarAt(1));
            if (std::size_t(size) != r.size())
                return invalid("output_size does not match the repeats");
        }
        PTE_CHECK(resize(*out, { std::int64_t(r.size()) }));
        store(*out, r);
        return {};
    }
};

} // namespace

void registerIndexKernels(KernelRegistry& registry)
{
    using F = Index;
    registry.add("aten::index_select.out", invoke<F, &F::indexSelect>);
    registry.add("aten::gather.out", invoke<F, &F::gatherScatter>);
    registry.add("aten::scatter.src_out", invoke<F, &F::gatherScatter>);
    registry.add("aten::scatter_add.out", invoke<F, &F::gatherScatter>);
    registry.add("aten::scatter.value_out", invoke<F, &F::gatherScatter>);
    registry.add("aten::embedding.out", invoke<F, &F::embedding>);
    registry.add("aten::index.Tensor_out", invoke<F, &F::index>);
    registry.add("aten::index_put.out", invoke<F, &F::index>);
    registry.add("aten::masked_scatter.out", invoke<F, &F::maskedScatter>);
    registry.add("aten::slice_scatter.out", invoke<F, &F::sliceScatter>);
    registry.add("aten::select_scatter.out", invoke<F, &F::selectScatter>);
    registry.add("aten::masked_select.out", invoke<F, &F::maskedSelect>);
    registry.add("aten::nonzero.out", invoke<F, &F::nonzero>);
    registry.add("aten::repeat_interleave.Tensor_out", invoke<F, &F::repeatInterleave>);
}

} // namespace pte::interp
