// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Shape utilities: chunk, split, tensor_split, unbind, unflatten, movedim, expand_as, view_as, repeat_interleave, roll,
// meshgrid... Each decomposition follows the op's PyTorch definition (torch's core decomposition table or the op's
// composite implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"

#include <algorithm>
#include <numeric>

namespace pte::emitcore {

namespace {

using D = Decomposer;

/** Pieces of split_size along a dimension of length len (split.Tensor: the last one smaller, at least one). */
std::vector<std::int64_t> splitPieces(std::int64_t len, std::int64_t size)
{
    if (size <= 0)
        return { len };
    const std::int64_t n = std::max<std::int64_t>((len + size - 1) / size, 1);
    std::vector<std::int64_t> pieces(std::size_t(n), size);
    pieces.back() = size - (size * n - len);
    return pieces;
}

/** Splits self along dim into `pieces` (split_with_sizes_copy) and binds the node's list output. */
Result<bool> finishSplit(D& d, int x, std::int64_t dim, const std::vector<std::int64_t>& pieces)
{
    return d.finish(d.b.split(x, pieces, dim));
}

/** A static dimension's length, or a refusal when it is dynamic (the piece count would depend on it). */
Result<std::int64_t> staticLength(D& d, int x, std::int64_t& dim)
{
    dim = d.b.wrapDim(dim, d.b.rank(x));
    if (dim < 0) {
        PTE_CHECK(d.b.status());
        return std::int64_t(0);
    }
    if (d.b.isDynamic(x, dim))
        return fail(d.refuse(d.target().op
                         + " along a dynamic dimension (the number and sizes of the pieces depend "
                           "on it; torch.export specializes it)")
                        .error());
    return std::int64_t(d.b.size(x, dim));
}

// chunk(n) = split.Tensor(ceil(d / n)): the last piece smaller, fewer than n pieces when d is small (torch's chunk).
Result<bool> chunk(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const std::int64_t chunks = D::integer(a, "chunks");
    if (chunks <= 0)
        return d.invalid("chunk expects `chunks` to be greater than 0, got " + std::to_string(chunks));
    std::int64_t dim = D::integer(a, "dim");
    PTE_TRY(const auto len, staticLength(d, x, dim));
    return finishSplit(d, x, dim, splitPieces(len, (len + chunks - 1) / chunks));
}

// unsafe_split.Tensor(size), split.sizes / unsafe_split_with_sizes(sizes) -> split_with_sizes_copy; split.Tensor keeps
// its own kernel (split_copy.Tensor_out, the same pieces).
Result<bool> split(D& d)
{
    if (d.target().op == "split" && d.target().overload == "Tensor")
        return false;
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    std::int64_t dim = D::integer(a, "dim");
    const bool sizesGiven = d.target().overload == "sizes" || d.target().op == "unsafe_split_with_sizes";
    if (sizesGiven) {
        const auto sizes = D::intList(a, d.target().op == "unsafe_split_with_sizes" ? "split_sizes" : "split_size");
        if (!sizes)
            return d.refuse("split sizes that are symbolic (the number of pieces is fixed, their sizes are not)");
        PTE_TRY(const auto len, staticLength(d, x, dim));
        (void)len;
        return finishSplit(d, x, dim, *sizes);
    }
    const auto size = D::intList(a, "split_size");
    if (!size || size->size() != 1)
        return d.refuse("a symbolic split size");
    if ((*size)[0] < 0)
        return d.invalid("split expects split_size be non-negative, but got " + std::to_string((*size)[0]));
    PTE_TRY(const auto len, staticLength(d, x, dim));
    return finishSplit(d, x, dim, splitPieces(len, (*size)[0]));
}

// tensor_split(sections): the first d % n pieces have d / n + 1 elements; tensor_split(indices): the pieces between
// the indices. Both are slices (slice_copy), as torch's composite makes them.
Result<bool> tensorSplit(D& d)
{
    if (d.target().overload == "tensor_indices_or_sections")
        return d.refuse("tensor_split with a tensor of indices or sections (its values decide the output shapes); "
                        "pass a Python int or list");
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    std::int64_t dim = D::integer(a, "dim");
    PTE_TRY(const auto len, staticLength(d, x, dim));
    std::vector<std::int64_t> bounds { 0 };
    if (d.target().overload == "sections") {
        const auto s = D::intList(a, "sections");
        if (!s || s->size() != 1)
            return d.refuse("a symbolic number of sections");
        const std::int64_t n = (*s)[0];
        if (n <= 0)
            return d.invalid("number of sections must be larger than 0, got " + std::to_string(n));
        for (std::int64_t k = 0; k < n; ++k)
            bounds.push_back(bounds.back() + len / n + (k < len % n ? 1 : 0));
    } else {
        const auto idx = D::intList(a, "indices");
        if (!idx)
            return d.refuse("symbolic split indices");
        bounds.insert(bounds.end(), idx->begin(), idx->end());
        bounds.push_back(len);
    }
    std::vector<int> pieces;
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k)
        pieces.push_back(d.b.slice(x, dim, bounds[k], bounds[k + 1]));
    return d.finish(pieces);
}

// unflatten(dim, sizes) = view with dim replaced by sizes (one -1 inferred).
Result<bool> unflatten(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const auto r = d.b.rank(x);
    const std::int64_t dim = d.b.wrapDim(D::integer(a, "dim"), r);
    Dims sizes = D::sizes(a, "sizes");
    if (dim < 0 || sizes.empty())
        return d.finish({ d.b.error(ErrorCode::InvalidInput, "unflatten: sizes must be non-empty") });
    std::ptrdiff_t inferred = -1;
    IntElem known = OpBuilder::lit(1);
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        if (sizes[k].ref < 0 && sizes[k].literal == -1) {
            if (inferred >= 0)
                return d.invalid("unflatten: only one dimension can be inferred");
            inferred = std::ptrdiff_t(k);
        } else {
            known = d.b.mulInt(known, sizes[k]);
        }
    }
    if (inferred >= 0)
        sizes[std::size_t(inferred)] = d.b.floorDivInt(d.b.dim(x, dim), known);
    Dims shape;
    for (std::size_t k = 0; k < r; ++k) {
        if (std::int64_t(k) == dim)
            shape.insert(shape.end(), sizes.begin(), sizes.end());
        else
            shape.push_back(d.b.dim(x, std::int64_t(k)));
    }
    return d.finish({ d.b.view(x, shape) });
}

// flatten(start, end): the dimensions start..end folded into one (a 0-d tensor becomes [1]) -> view_copy.
Result<bool> flatten(D& d)
{
    if (d.target().overload != "using_ints")
        return d.refuse("flatten." + d.target().overload + " (named dimensions)");
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const auto r = d.b.rank(x);
    if (r == 0)
        return d.finish({ d.b.view(x, std::vector<std::int64_t> { 1 }) });
    const std::int64_t s = d.b.wrapDim(D::integer(a, "start_dim"), r);
    const std::int64_t e = d.b.wrapDim(D::integer(a, "end_dim", -1), r);
    if (s < 0 || e < 0)
        return d.finish({ -1 });
    if (s > e)
        return d.invalid("flatten() has invalid args: start_dim cannot come after end_dim");
    if (s == e)
        return d.finish({ x });
    Dims shape;
    IntElem folded = OpBuilder::lit(1);
    for (std::int64_t k = 0; k < std::int64_t(r); ++k) {
        if (k < s || k > e)
            shape.push_back(d.b.dim(x, k));
        else
            folded = d.b.mulInt(folded, d.b.dim(x, k));
        if (k == e)
            shape.push_back(folded);
    }
    return d.finish({ d.b.view(x, shape) });
}

// movedim(source, destination): the permutation torch computes (moved dimensions at their destinations, the rest in
// order in the free places) -> permute_copy.
Result<bool> movedim(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const auto r = std::int64_t(d.b.rank(x));
    const auto src = D::intList(a, "source");
    const auto dst = D::intList(a, "destination");
    if (!src || !dst || src->size() != dst->size())
        return d.invalid("movedim: Invalid source or destination dims: source and destination must have the same "
                         "number of dimensions");
    std::vector<std::int64_t> order(std::size_t(r), -1);
    std::vector<bool> usedSrc(std::size_t(r), false);
    for (std::size_t k = 0; k < src->size(); ++k) {
        const auto s = d.b.wrapDim((*src)[k], std::size_t(r));
        const auto t = d.b.wrapDim((*dst)[k], std::size_t(r));
        if (s < 0 || t < 0)
            return d.finish({ -1 });
        if (r == 0)
            return d.finish({ x });
        if (order[std::size_t(t)] >= 0 || usedSrc[std::size_t(s)])
            return d.invalid("movedim: repeated dim in source or destination");
        order[std::size_t(t)] = s;
        usedSrc[std::size_t(s)] = true;
    }
    std::int64_t next = 0;
    for (auto& o : order) {
        if (o >= 0)
            continue;
        while (usedSrc[std::size_t(next)])
            ++next;
        o = next++;
    }
    return d.finish({ d.b.permute(x, order) });
}

// expand_as(other) = expand(other.shape); view_as / reshape_as(other) = view(other.shape).
Result<bool> asOther(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const int other = D::tensor(a, "other");
    if (d.target().op == "expand_as")
        return d.finish({ d.b.expand(x, d.b.dims(other)) });
    return d.finish({ d.b.view(x, d.b.dims(other)) });
}

// broadcast_to(size) = expand(size).
Result<bool> broadcastTo(D& d)
{
    PTE_TRY(const auto a, d.args());
    return d.finish({ d.b.expand(D::tensor(a, "self"), D::sizes(a, "size")) });
}

// narrow(dim, start, length) = slice(dim, start, start + length), a negative start counting from the end.
Result<bool> narrow(D& d)
{
    if (d.target().overload == "Tensor")
        return d.refuse("narrow with a tensor start (its value decides the slice); pass a Python int");
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const std::int64_t dim = d.b.wrapDim(D::integer(a, "dim"), d.b.rank(x));
    if (dim < 0)
        return d.finish({ -1 });
    const Dims start = D::sizes(a, "start");
    const Dims length = D::sizes(a, "length");
    if (start.size() != 1 || length.size() != 1)
        return d.invalid("narrow needs a start and a length");
    IntElem s = start[0];
    if (s.ref < 0 && s.literal < 0)
        s = d.b.addInt(d.b.dim(x, dim), s);
    return d.finish({ d.b.slice(x, dim, s, d.b.addInt(s, length[0])) });
}

// repeat_interleave(self, repeats: int, dim) = unsqueeze(dim + 1), expand, view (each element repeated in place; no
// dim: the flattened self). repeat_interleave(self, repeats: Tensor, dim) = index_select(self, dim,
// repeat_interleave.Tensor(repeats)), repeats of one element expanded to the dimension's length (torch's composite).
Result<bool> repeatInterleave(D& d)
{
    if (d.target().overload == "Tensor")
        return false; // repeat_interleave.Tensor(repeats): the kernel
    PTE_TRY(const auto a, d.args());
    int x = D::tensor(a, "self");
    const auto dimArg = a.find("dim");
    const bool hasDim = dimArg != a.end() && dimArg->second.kind == LArg::Kind::Int;
    if (!hasDim)
        x = d.b.view(x, Dims { OpBuilder::lit(-1) });
    const std::int64_t dim = d.b.wrapDim(hasDim ? dimArg->second.i : 0, d.b.rank(x));
    if (dim < 0)
        return d.finish({ -1 });
    if (d.target().overload == "self_int") {
        const Dims reps = D::sizes(a, "repeats");
        if (reps.size() != 1)
            return d.invalid("repeat_interleave needs a number of repeats");
        if (reps[0].ref < 0 && reps[0].literal < 0)
            return d.invalid("repeat_interleave: repeats can not be negative");
        if (d.b.rank(x) == 0)
            x = d.b.view(x, Dims { OpBuilder::lit(1) });
        const int u = d.b.unsqueeze(x, dim + 1);
        Dims expanded = d.b.dims(u);
        expanded[std::size_t(dim + 1)] = reps[0];
        const int e = d.b.expand(u, expanded);
        Dims shape = d.b.dims(x);
        shape[std::size_t(dim)] = d.b.mulInt(shape[std::size_t(dim)], reps[0]);
        return d.finish({ d.b.view(e, shape) });
    }
    int reps = D::tensor(a, "repeats");
    if (d.b.rank(reps) > 1)
        return d.invalid("repeat_interleave: repeats must be 0-dim or 1-dim tensor");
    if (d.b.rank(reps) == 0 || (d.b.size(reps, 0) == 1 && !d.b.isDynamic(reps, 0)))
        reps = d.b.expand(d.b.view(reps, Dims { OpBuilder::lit(1) }), Dims { d.b.dim(x, dim) });
    // The number of indices is data-dependent: the output_size argument, or the dump's output length (its upper
    // bound when symbolic); the kernel sizes the result.
    const auto out = d.b.nodeOutput(0);
    const auto outSize = a.find("output_size");
    std::int32_t total = 0;
    bool dynamic = true;
    if (outSize != a.end() && outSize->second.kind == LArg::Kind::Int) {
        total = std::int32_t(outSize->second.i);
        dynamic = false;
    } else if (out && std::size_t(dim) < out->sizes.size()) {
        total = out->sizes[std::size_t(dim)];
        dynamic = ((out->dynamicDims >> dim) & 1u) != 0;
    } else {
        return d.refuse("repeat_interleave with tensor repeats and no known output size");
    }
    ArgMap ra { { "repeats", LArg::tensor(reps) } };
    if (outSize != a.end())
        ra["output_size"] = outSize->second;
    const int idx = d.b.call1("repeat_interleave", "Tensor_out", std::move(ra),
        OpBuilder::spec(ScalarType::Long, { total }, dynamic ? 1u : 0u));
    return d.finish({ d.b.indexSelect(x, dim, idx) });
}

// roll(shifts, dims): the roll.out kernel; without dims torch rolls the flattened tensor and views it back.
Result<bool> roll(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const auto shifts = D::intList(a, "shifts");
    const auto dims = D::intList(a, "dims");
    if (!shifts)
        return d.refuse("roll with symbolic shifts");
    const bool flat = !dims || dims->empty();
    if (flat && shifts->size() != 1)
        return d.invalid("roll: shifts and dimensions must align (no dims: one shift)");
    if (!flat && dims->size() != shifts->size())
        return d.invalid("roll: shifts and dimensions must align");
    const int src = flat ? d.b.view(x, Dims { OpBuilder::lit(-1) }) : x;
    const std::vector<std::int64_t> rd = flat ? std::vector<std::int64_t> { 0 } : *dims;
    const int r = d.b.call1("roll", "out",
        { { "self", LArg::tensor(src) }, { "shifts", OpBuilder::ints(*shifts) }, { "dims", OpBuilder::ints(rd) } },
        d.b.like(src));
    return d.finish({ flat ? d.b.view(r, d.b.dims(x)) : r });
}

// meshgrid(tensors, indexing): tensor i viewed as [1, .., -1, .., 1] and expanded to the sizes of all ('xy': the
// first two swapped before and after, as torch does).
Result<bool> meshgrid(D& d)
{
    PTE_TRY(const auto a, d.args());
    auto ts = D::tensorList(a, "tensors");
    const std::string indexing = D::string(a, "indexing").value_or("ij");
    if (indexing != "ij" && indexing != "xy")
        return d.invalid("torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: " + indexing);
    if (ts.empty())
        return d.invalid("meshgrid expects a non-empty TensorList");
    for (const int t : ts)
        if (d.b.rank(t) > 1)
            return d.invalid("torch.meshgrid: Expected 0D or 1D tensor in the tensor list");
    const bool swap = indexing == "xy" && ts.size() >= 2;
    if (swap)
        std::swap(ts[0], ts[1]);
    Dims shape;
    for (const int t : ts)
        shape.push_back(d.b.rank(t) == 0 ? OpBuilder::lit(1) : d.b.dim(t, 0));
    std::vector<int> grids;
    for (std::size_t k = 0; k < ts.size(); ++k) {
        Dims v(ts.size(), OpBuilder::lit(1));
        v[k] = OpBuilder::lit(-1);
        grids.push_back(d.b.expand(d.b.view(ts[k], v), shape));
    }
    if (swap)
        std::swap(grids[0], grids[1]);
    return d.finish(grids);
}

// swapaxes / swapdims = transpose -> permute_copy.
Result<bool> swapDims(D& d)
{
    PTE_TRY(const auto a, d.args());
    const bool axes = d.target().op == "swapaxes";
    return d.finish({ d.b.transpose(
        D::tensor(a, "self"), D::integer(a, axes ? "axis0" : "dim0"), D::integer(a, axes ? "axis1" : "dim1")) });
}

// type_as(other) and the to overloads that take a dtype, a device or another tensor: _to_dim_order_copy to the dtype
// (nothing when it is already that dtype). to.dtype keeps the core rule (memory formats).
Result<bool> to(D& d)
{
    const auto& ovl = d.target().overload;
    if (d.target().op == "to" && ovl == "dtype")
        return d.to();
    if (d.target().op == "to" && ovl != "dtype_layout" && ovl != "device" && ovl != "other")
        return d.refuse("aten::to." + ovl + " is not lowered");
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    ScalarType t = d.b.dtype(x);
    if (const int other = D::tensor(a, "other"); other >= 0)
        t = d.b.dtype(other);
    else if (const auto it = a.find("dtype"); it != a.end() && it->second.kind == LArg::Kind::Int)
        t = ScalarType(it->second.i);
    if (const auto mf = a.find("memory_format"); mf != a.end() && mf->second.kind == LArg::Kind::Int
        && mf->second.i != 0 && mf->second.i != 1 && mf->second.i != 4)
        return d.refuse("aten::to." + ovl + " to a memory format other than contiguous or preserve");
    return d.finish({ d.b.cast(x, t) });
}

/** atleast_1d/2d/3d of one tensor, as torch's composites shape them. */
int atLeast(OpBuilder& b, int x, int n)
{
    const auto r = b.rank(x);
    if (r >= std::size_t(n))
        return x;
    if (r == 0)
        return b.view(x, std::vector<std::int64_t>(std::size_t(n), 1));
    if (n == 2)
        return b.unsqueeze(x, 0);
    if (r == 1)
        return b.unsqueeze(b.unsqueeze(x, 0), -1);
    return b.unsqueeze(x, -1);
}

Result<bool> atLeastNd(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int n = d.target().op == "atleast_1d" ? 1 : d.target().op == "atleast_2d" ? 2 : 3;
    if (d.target().overload == "Sequence") {
        std::vector<int> outs;
        for (const int t : D::tensorList(a, "tensors"))
            outs.push_back(atLeast(d.b, t, n));
        return d.finish(outs);
    }
    return d.finish({ atLeast(d.b, D::tensor(a, "self"), n) });
}

// hstack = cat(atleast_1d, dim 0 for 1-D else 1); vstack = cat(atleast_2d, 0); dstack = cat(atleast_3d, 2);
// column_stack = cat(tensors of rank <= 1 as [numel, 1], 1).
Result<bool> stackVariants(D& d)
{
    PTE_TRY(const auto a, d.args());
    const auto& op = d.target().op;
    std::vector<int> ts = D::tensorList(a, "tensors");
    if (ts.empty())
        return d.invalid(op + " expects a non-empty TensorList");
    std::int64_t dim = 0;
    for (auto& t : ts) {
        if (op == "hstack")
            t = atLeast(d.b, t, 1);
        else if (op == "vstack")
            t = atLeast(d.b, t, 2);
        else if (op == "dstack")
            t = atLeast(d.b, t, 3);
        else if (d.b.rank(t) <= 1)
            t = d.b.view(t, Dims { d.b.rank(t) == 0 ? OpBuilder::lit(1) : d.b.dim(t, 0), OpBuilder::lit(1) });
    }
    if (op == "hstack")
        dim = d.b.rank(ts[0]) == 1 ? 0 : 1;
    else if (op == "dstack")
        dim = 2;
    else if (op == "column_stack")
        dim = 1;
    if (ts.size() == 1)
        return d.finish({ d.b.clone(ts[0]) });
    return d.finish({ d.b.cat(ts, dim) });
}

// diag_embed(offset, dim1, dim2), torch's decomposition: self (padded with |offset| zeros in its last dimension)
// unsqueezed at dim1 and its last dimension moved to dim2, masked with where(arange(n) == arange(offset, n + offset)
// [:, None], ., 0) on the (dim1, dim2) plane.
Result<bool> diagEmbed(D& d)
{
    PTE_TRY(const auto a, d.args());
    int t = D::tensor(a, "self");
    if (!d.b.isStatic(t))
        return d.refuse("diag_embed of a dynamic tensor");
    const auto rank = d.b.rank(t) + 1;
    std::int64_t offset = D::integer(a, "offset");
    std::int64_t dim1 = d.b.wrapDim(D::integer(a, "dim1", -2), rank);
    std::int64_t dim2 = d.b.wrapDim(D::integer(a, "dim2", -1), rank);
    if (dim1 < 0 || dim2 < 0)
        return d.finish({ -1 });
    if (dim1 == dim2)
        return d.invalid(
            "diagonal dimensions cannot be identical " + std::to_string(dim1) + ", " + std::to_string(dim2));
    if (dim1 > dim2) {
        std::swap(dim1, dim2);
        offset = -offset;
    }
    std::int64_t last = d.b.size(t, -1);
    if (offset != 0) {
        std::vector<std::int32_t> zs = d.b.sizes(t);
        if (zs.empty())
            zs.push_back(1);
        zs.back() = std::int32_t(std::abs(offset));
        Dims zd;
        for (const auto s : zs)
            zd.push_back(OpBuilder::lit(s));
        const int z = d.b.full(zd, 0, d.b.dtype(t));
        t = offset > 0 ? d.b.cat({ z, t }, -1) : d.b.cat({ t, z }, -1);
        last += std::abs(offset);
    }
    t = d.b.unsqueeze(t, dim1);
    std::vector<std::int64_t> perm;
    for (std::int64_t k = 0; k < std::int64_t(rank); ++k)
        if (k != std::int64_t(rank) - 1)
            perm.push_back(k);
    perm.insert(perm.begin() + dim2, std::int64_t(rank) - 1);
    t = d.b.permute(t, perm);
    const int ar = d.b.arange(0, double(last), 1, ScalarType::Long);
    const int br = d.b.arange(double(offset), double(last + offset), 1, ScalarType::Long);
    const int cond = d.b.binary("eq", ar, d.b.unsqueeze(br, -1));
    std::vector<std::int64_t> condShape(rank, 1);
    condShape[std::size_t(dim1)] = last;
    condShape[std::size_t(dim2)] = last;
    const int c = d.b.view(cond, condShape);
    if (d.b.dtype(t) == ScalarType::Bool)
        return d.finish({ d.b.binary("logical_and", c, t) });
    return d.finish({ d.b.whereScalar(c, t, 0.0) });
}

// tile(dims) = repeat, dims padded with leading 1s to the rank.
Result<bool> tile(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    auto reps = D::intList(a, "dims");
    if (!reps)
        return d.refuse("tile with symbolic repeats");
    if (reps->size() < d.b.rank(x))
        reps->insert(reps->begin(), d.b.rank(x) - reps->size(), 1);
    return d.finish({ d.b.repeat(x, *reps) });
}

// take_along_dim(indices, dim): self and indices broadcast against each other outside dim, then gather; no dim:
// gather(self.view(-1), 0, indices.view(-1)).
Result<bool> takeAlongDim(D& d)
{
    PTE_TRY(const auto a, d.args());
    const int x = D::tensor(a, "self");
    const int idx = D::tensor(a, "indices");
    const auto dimArg = a.find("dim");
    auto gather = [&](int s, std::int64_t dim, int i) {
        return d.b.call1("gather", "out",
            { { "self", LArg::tensor(s) }, { "dim", OpBuilder::integer(dim) }, { "index", LArg::tensor(i) } },
            d.b.like(i, d.b.dtype(s)));
    };
    if (dimArg == a.end() || dimArg->second.kind != LArg::Kind::Int)
        return d.finish(
            { gather(d.b.view(x, Dims { OpBuilder::lit(-1) }), 0, d.b.view(idx, Dims { OpBuilder::lit(-1) })) });
    if (!d.b.isStatic(x) || !d.b.isStatic(idx))
        return d.refuse("take_along_dim of dynamic tensors");
    if (d.b.rank(x) != d.b.rank(idx))
        return d.invalid("torch.take_along_dim(): input and indices should have the same number of dimensions");
    const std::int64_t dim = d.b.wrapDim(dimArg->second.i, d.b.rank(x));
    if (dim < 0)
        return d.finish({ -1 });
    auto shapeWith = [&](int v, std::int64_t len) {
        auto s = d.b.like(v);
        s.sizes[std::size_t(dim)] = std::int32_t(len);
        return s;
    };
    const auto bi = d.b.broadcast(shapeWith(x, d.b.size(idx, dim)), d.b.like(idx), ScalarType::Long);
    const auto bs = d.b.broadcast(shapeWith(idx, d.b.size(x, dim)), d.b.like(x), d.b.dtype(x));
    if (!bi || !bs)
        return d.finish({ -1 });
    auto lits = [](const std::vector<std::int32_t>& v) { return OpBuilder::lits({ v.begin(), v.end() }); };
    return d.finish({ gather(d.b.expand(x, lits(bs->sizes)), dim, d.b.expand(idx, lits(bi->sizes))) });
}

const DecompositionRule kShapeRules[] = {
    { "chunk", &chunk, "split_with_sizes_copy (pieces of ceil(d / chunks), the last smaller)" },
    { "unsafe_chunk", &chunk, "split_with_sizes_copy (pieces of ceil(d / chunks), the last smaller)" },
    { "split", &split, "split.sizes: split_with_sizes_copy; split.Tensor: split_copy.Tensor_out" },
    { "unsafe_split", &split, "split_with_sizes_copy (pieces of split_size, the last smaller)" },
    { "unsafe_split_with_sizes", &split, "split_with_sizes_copy" },
    { "tensor_split", &tensorSplit,
        "slice_copy per piece (sections: the first d % n pieces one longer; indices: between the indices); a tensor "
        "of indices is refused" },
    { "unflatten", &unflatten, "view_copy (-1 resolved)" },
    { "flatten", &flatten, "view_copy (a 0-d tensor becomes [1]; dynamic sizes multiplied at run time)" },
    { "movedim", &movedim, "permute_copy" },
    { "moveaxis", &movedim, "permute_copy" },
    { "expand_as", &asOther, "expand_copy to the other's shape" },
    { "view_as", &asOther, "view_copy to the other's shape" },
    { "reshape_as", &asOther, "view_copy to the other's shape" },
    { "broadcast_to", &broadcastTo, "expand_copy" },
    { "narrow", &narrow, "slice_copy (start + length); a tensor start is refused" },
    { "repeat_interleave", &repeatInterleave,
        "int repeats: unsqueeze_copy, expand_copy, view_copy; tensor repeats: repeat_interleave.Tensor_out + "
        "index_select" },
    { "roll", &roll, "roll.out (no dims: view_copy to 1-D, roll.out, view_copy back)" },
    { "meshgrid", &meshgrid, "view_copy + expand_copy per tensor (indexing 'xy': the first two swapped)" },
    { "swapaxes", &swapDims, "permute_copy" },
    { "swapdims", &swapDims, "permute_copy" },
    { "type_as", &to, "dim_order_ops::_to_dim_order_copy to the other's dtype (nothing when equal)" },
    { "to", &to,
        "dim_order_ops::_to_dim_order_copy (dtype, dtype_layout, device and other overloads; nothing when the dtype "
        "is unchanged)" },
    { "atleast_1d", &atLeastNd, "view_copy (0-d) or nothing" },
    { "atleast_2d", &atLeastNd, "view_copy (0-d), unsqueeze_copy (1-d) or nothing" },
    { "atleast_3d", &atLeastNd, "view_copy (0-d), unsqueeze_copy (1-d, 2-d) or nothing" },
    { "hstack", &stackVariants, "cat of atleast_1d (dim 0 for 1-D tensors, else 1)" },
    { "vstack", &stackVariants, "cat of atleast_2d along dim 0" },
    { "dstack", &stackVariants, "cat of atleast_3d along dim 2" },
    { "column_stack", &stackVariants, "cat along dim 1 (tensors of rank <= 1 viewed as [n, 1])" },
    { "diag_embed", &diagEmbed,
        "full (zeros) + cat for an offset, unsqueeze_copy, permute_copy, arange, eq, view_copy, where" },
    { "tile", &tile, "repeat (repeats padded with leading 1s)" },
    { "take_along_dim", &takeAlongDim, "expand_copy of both + gather (no dim: view_copy to 1-D + gather)" },
};

} // namespace

std::span<const DecompositionRule> shapeRules() { return kShapeRules; }

} // namespace pte::emitcore
