// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Embedding bags (nn.EmbeddingBag, F.embedding_bag): embedding_bag, its padding_idx overload and _embedding_bag,
// which ExecuTorch's portable library has no kernel for, become embedding plus a per-bag reduction. The op's PyTorch
// definition (ATen's EmbeddingBag) fixes what each bag holds; docs/lowering.md ("Embedding bags") explains the
// rewrite and docs/decompositions.md lists it.
#include "emit/decomposer_p.h"

#include <limits>
#include <string>

namespace pte::emitcore {

namespace {

/**
 * The reduction of embedding_bag(weight, indices, offsets, mode, per_sample_weights, include_last_offset,
 * padding_idx) over 1-D indices: bag b holds the positions [offsets[b], offsets[b + 1]) (the last bag runs to the
 * end, unless include_last_offset makes the last offset its end), minus the positions whose index is padding_idx.
 *   bag(i) = #{b : offsets[b] <= i} - 1 (le, sum), a position in no bag sent to an extra bag B (where);
 *   sum: scatter_add of the embedded rows (times per_sample_weights) into zeros (B + 1, D), in position order as
 *        ATen adds them, the extra bag sliced off;
 *   mean: that sum divided by max(bag size, 1) (an empty bag stays 0);
 *   max: amax over the positions of where(bag(i) == b, row i, -inf), 0 for an empty bag.
 * Returns the output (B, D); the other outputs (offset2bag, bag_size, max_indices) are left unbound.
 */
Result<bool> decomposeEmbeddingBag(Decomposer& d)
{
    const std::string op(d.target().op);
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int weight = Decomposer::tensor(a, "weight");
    const int indices = Decomposer::tensor(a, "indices");
    const int offsets = Decomposer::tensor(a, "offsets");
    if (weight < 0 || indices < 0 || offsets < 0)
        return d.invalid(op + " needs weight, indices and offsets");
    if (b.rank(weight) != 2)
        return d.invalid(op + ": weight has to be a 2-D tensor");
    if (b.rank(indices) != 1 || b.rank(offsets) != 1)
        return d.invalid(op + ": indices and offsets have to be 1-D (F.embedding_bag flattens 2-D input before)");
    if (b.isDynamic(offsets, 0) || b.isDynamic(weight, 1))
        return d.refuse(op + " with a dynamic number of bags or embedding size is not lowered");
    const std::int64_t mode = Decomposer::integer(a, "mode");
    if (mode < 0 || mode > 2)
        return d.invalid(op + ": unknown mode " + std::to_string(mode) + " (0 sum, 1 mean, 2 max)");
    const int perSample = Decomposer::tensor(a, "per_sample_weights");
    if (perSample >= 0 && mode != 0)
        return d.invalid(op + ": per_sample_weights is only supported for mode='sum'");
    const bool includeLast = Decomposer::flag(a, "include_last_offset");
    const std::int64_t numWeights = b.size(weight, 0);
    std::int64_t padding = -1;
    if (!Decomposer::isNone(a, "padding_idx")) {
        padding = Decomposer::integer(a, "padding_idx", -1);
        if (op == "embedding_bag") { // the public op takes Python's negative indices; _embedding_bag's -1 is none
            if (padding < -numWeights || padding >= numWeights)
                return d.invalid(op + ": padding_idx must be within the number of embeddings");
            if (padding < 0)
                padding += numWeights;
        }
    }
    const std::int64_t given = b.size(offsets, 0);
    const std::int64_t bags = includeLast ? given - 1 : given;
    if (bags < 1)
        return d.invalid(op + ": include_last_offset needs at least one bag (two offsets)");
    const std::int64_t dim = b.size(weight, 1);
    const ScalarType t = b.dtype(weight);

    const IntElem count = b.dim(indices, 0);
    const int position = b.arangeTo(count, ScalarType::Long); // (N)
    const int starts = b.unsqueeze(b.slice(offsets, 0, 0, bags), 1); // (B, 1)
    int bag =
        b.binaryScalar("sub", b.sum(b.binary("le", starts, b.unsqueeze(position, 0)), { 0 }, false, ScalarType::Long),
            OpBuilder::integer(1)); // (N)
    int member = b.binaryScalar("ge", bag, OpBuilder::integer(0));
    if (includeLast)
        member = b.binary("logical_and", member, b.binary("lt", position, b.slice(offsets, 0, bags, bags + 1)));
    if (padding >= 0)
        member = b.binary("logical_and", member, b.binaryScalar("ne", indices, OpBuilder::integer(padding)));
    bag = b.whereScalar(member, bag, double(bags));

    int rows = b.call1("embedding", "out",
        { { "weight", LArg::tensor(weight) }, { "indices", LArg::tensor(indices) },
            { "padding_idx", OpBuilder::integer(-1) }, { "scale_grad_by_freq", OpBuilder::boolean(false) },
            { "sparse", OpBuilder::boolean(false) } },
        OpBuilder::spec(t, { b.size(indices, 0), std::int32_t(dim) }, b.isDynamic(indices, 0) ? 1u : 0u));
    if (perSample >= 0)
        rows = b.mul(rows, b.unsqueeze(b.cast(perSample, t), 1));
    const Dims perRow { count, OpBuilder::lit(dim) };
    const int bagOfRow = b.expand(b.unsqueeze(bag, 1), perRow); // (N, D)
    auto perBag = [&](int src, const Dims& shape) {
        const int zeros = b.full(shape, 0.0, b.dtype(src));
        return b.call1("scatter_add", "out",
            { { "self", LArg::tensor(zeros) }, { "dim", OpBuilder::integer(0) },
                { "index", LArg::tensor(src == rows ? bagOfRow : bag) }, { "src", LArg::tensor(src) } },
            b.like(zeros));
    };
    const Dims table { OpBuilder::lit(bags + 1), OpBuilder::lit(dim) };
    if (mode == 0)
        return d.finish({ b.slice(perBag(rows, table), 0, 0, bags), -1, -1, -1 });
    // Bag sizes: ones scattered per bag (positions in no bag land in the extra one).
    const int sizes = b.slice(perBag(b.fullLike(bag, 1.0, t), Dims { OpBuilder::lit(bags + 1) }), 0, 0, bags);
    const int size = b.unsqueeze(sizes, 1); // (B, 1)
    if (mode == 1) {
        const int sum = b.slice(perBag(rows, table), 0, 0, bags);
        return d.finish({ b.div(sum, b.clamp(size, 1.0, std::nullopt)), -1, -1, -1 });
    }
    const int bagIds = b.unsqueeze(b.arange(0, double(bags), 1, ScalarType::Long), 1); // (B, 1)
    const int inBag = b.unsqueeze(b.binary("eq", b.unsqueeze(bag, 0), bagIds), 2); // (B, N, 1)
    const int candidates =
        b.whereScalar(inBag, b.unsqueeze(rows, 0), -std::numeric_limits<double>::infinity()); // (B, N, D)
    const int maxima = b.amax(candidates, { 1 }, false);
    const int nonEmpty = b.binaryScalar("gt", size, OpBuilder::num(0.0));
    return d.finish({ b.whereScalar(nonEmpty, maxima, 0.0), -1, -1, -1 });
}

const DecompositionRule kEmbeddingBagRules[] = {
    { "embedding_bag", &decomposeEmbeddingBag,
        "embedding, bag of each position from the offsets (arange, le, sum, sub, where); sum: scatter_add into "
        "zeros (full) [mul by per_sample_weights]; mean: and div by the clamped bag size; max: where, amax, where" },
    { "_embedding_bag", &decomposeEmbeddingBag, "as embedding_bag (padding_idx -1 is none)" },
    { "_embedding_bag_forward_only", &decomposeEmbeddingBag, "as embedding_bag (padding_idx -1 is none)" },
};

} // namespace

std::span<const DecompositionRule> embeddingBagRules() { return kEmbeddingBagRules; }

} // namespace pte::emitcore
