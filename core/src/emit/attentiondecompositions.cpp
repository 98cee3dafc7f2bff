// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Attention: scaled_dot_product_attention (masks, causal, scale, grouped-query) and the pieces of multi-head attention
// (baddbmm, addbmm), einsum, bilinear and tensordot. Each decomposition follows the op's PyTorch definition (torch's
// core decomposition table or the op's composite implementation); docs/decompositions.md lists what each becomes.
#include "emit/decomposer_p.h"
#include "emit/edgelayout.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pte::emitcore {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool isReducedFloat(ScalarType t) { return t == ScalarType::Half || t == ScalarType::BFloat16; }

std::string showNumber(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string showShape(const std::vector<std::int32_t>& s)
{
    std::string r = "[";
    for (std::size_t k = 0; k < s.size(); ++k)
        r += (k ? ", " : "") + std::to_string(s[k]);
    return r + "]";
}

/** A Python scalar as the tensor's Scalar argument: an int for integer tensors, a float otherwise. */
LArg scalarFor(OpBuilder& b, int x, double v)
{
    return isFloatingType(b.dtype(x)) ? OpBuilder::num(v) : OpBuilder::integer(std::int64_t(v));
}

// ---------------------------------------------------------------------------------------------------------
// Scaled dot-product attention (aten/src/ATen/native/transformers/attention.cpp)
// ---------------------------------------------------------------------------------------------------------

/** convert_boolean_attn_mask: a bool mask (True = attend) becomes where(logical_not(mask), -inf, 0) of dtype t;
 *  any other mask is additive already. */
int additiveMask(OpBuilder& b, int mask, ScalarType t)
{
    if (mask < 0 || b.failed() || b.dtype(mask) != ScalarType::Bool)
        return mask;
    return b.whereScalar(b.unary("logical_not", mask), -kInf, b.scalarConstant(0.0, t));
}

/** _safe_softmax(x, dim): softmax, with rows that are -inf throughout giving 0 instead of NaN (torch's
 *  decomposition: where(all(x == -inf, dim, keepdim), 0, softmax), `all` being logical_not(any(logical_not))). */
int safeSoftmax(OpBuilder& b, int x, std::int64_t dim, std::optional<ScalarType> dtype = std::nullopt)
{
    const int out = b.softmax(dtype ? b.cast(x, *dtype) : x, dim);
    const int masked = b.binaryScalar("eq", x, OpBuilder::num(-kInf));
    const int allMasked = b.unary("logical_not", b.any(b.unary("logical_not", masked), { dim }, true));
    return b.whereScalar(allMasked, 0.0, out);
}

/** x.repeat_interleave(repeats, dim) with an int repeat count, as ATen computes it: unsqueeze(dim + 1), expand the
 *  new dimension to `repeats`, and fold it into dim (a contiguous copy viewed). */
int repeatInterleave(OpBuilder& b, int x, std::int64_t repeats, std::int64_t dim)
{
    if (b.failed() || x < 0)
        return -1;
    if (repeats == 1)
        return x;
    dim = b.wrapDim(dim, b.rank(x));
    if (dim < 0)
        return -1;
    const Dims sizes = b.dims(x);
    Dims expanded = sizes;
    expanded.insert(expanded.begin() + dim + 1, OpBuilder::lit(repeats));
    const int e = b.expand(b.unsqueeze(x, dim + 1), expanded);
    Dims folded = sizes;
    folded[std::size_t(dim)] = b.mulInt(sizes[std::size_t(dim)], OpBuilder::lit(repeats));
    return b.view(e, folded);
}

struct Sdpa
{
    int query = -1;
    int key = -1;
    int value = -1;
    int mask = -1; ///< additive (bool masks are converted by the callers that convert them)
    bool causal = false;
    std::optional<double> scale;
    bool gqa = false;
};

/**
 * torch's _scaled_dot_product_attention_math: {output, attention weights}. Half and bfloat16 operands are computed in
 * float (ATen keeps the math in high precision); the output goes back to the query's dtype. q and k are each scaled by
 * sqrt(scale) before the product (for stability, as ATen does), the mask is added to the scores, _safe_softmax, then
 * the product with v.
 */
std::pair<int, int> sdpaMath(OpBuilder& b, Sdpa p)
{
    if (b.failed())
        return { -1, -1 };
    if (p.query < 0 || p.key < 0 || p.value < 0) {
        b.error(ErrorCode::InvalidInput, "attention needs a query, a key and a value");
        return { -1, -1 };
    }
    if (b.rank(p.query) < 2 || b.rank(p.key) < 2 || b.rank(p.value) < 2) {
        b.error(ErrorCode::InvalidInput, "query, key and value must all have at least 2 dimensions");
        return { -1, -1 };
    }
    const ScalarType origin = b.dtype(p.query);
    for (int* t : { &p.query, &p.key, &p.value })
        if (isReducedFloat(b.dtype(*t)))
            *t = b.cast(*t, ScalarType::Float);
    if (!p.scale && b.isDynamic(p.query, -1)) {
        b.error(ErrorCode::Unsupported,
            "the default scale 1/sqrt(E) of a dynamic embedding dimension (give the scale explicitly)");
        return { -1, -1 };
    }
    // calculate_scale(query, scale).sqrt(); a negative scale keeps its sign on the query side.
    const bool negative = p.scale && *p.scale < 0;
    const double scale = p.scale ? std::abs(*p.scale) : 1.0 / std::sqrt(double(b.size(p.query, -1)));
    const double factor = std::sqrt(scale);
    const int q = b.mul(p.query, negative ? 0.0 - factor : factor);
    int mask = p.mask;
    if (p.causal) {
        if (mask >= 0) {
            b.error(ErrorCode::InvalidInput, "an explicit attn_mask must not be set when is_causal=True");
            return { -1, -1 };
        }
        // ones(L, S, bool).tril(): query i attends to keys 0..i (top-left aligned when L != S).
        const int ones = b.full({ b.dim(p.query, -2), b.dim(p.key, -2) }, 1.0, ScalarType::Bool);
        mask = additiveMask(b, b.tril(ones, 0), b.dtype(q));
    }
    int k = p.key;
    int v = p.value;
    if (p.gqa) {
        // pre_process_group_query_attention_input: K and V heads (dim -3) repeated to the query's head count.
        if (b.rank(q) < 3 || b.rank(k) < 3 || b.rank(v) < 3) {
            b.error(ErrorCode::InvalidInput, "enable_gqa needs a head dimension (-3) in query, key and value");
            return { -1, -1 };
        }
        if (b.isDynamic(q, -3) || b.isDynamic(k, -3) || b.isDynamic(v, -3)) {
            b.error(ErrorCode::Unsupported, "enable_gqa with a dynamic number of heads");
            return { -1, -1 };
        }
        const std::int64_t hq = b.size(q, -3);
        const std::int64_t hk = b.size(k, -3);
        const std::int64_t hv = b.size(v, -3);
        if (!(hq == hk && hk == hv)) {
            if (hk <= 0 || hv <= 0 || hq % hk != 0 || hq % hv != 0) {
                b.error(ErrorCode::InvalidInput,
                    "enable_gqa: the key's " + std::to_string(hk) + " and the value's " + std::to_string(hv)
                        + " heads must divide the query's " + std::to_string(hq));
                return { -1, -1 };
            }
            k = repeatInterleave(b, k, hq / hk, -3);
            v = repeatInterleave(b, v, hq / hv, -3);
        }
    }
    int attn = b.matmul(q, b.mul(b.transpose(k, -2, -1), factor));
    if (mask >= 0 && !b.failed()) {
        // attn.add_(mask): in place, so the scores keep their shape and dtype.
        const auto before = b.sizes(attn);
        const ScalarType t = b.dtype(attn);
        attn = b.add(attn, mask);
        if (!b.failed() && b.sizes(attn) != before) {
            b.error(ErrorCode::InvalidInput,
                "attn_mask of shape " + showShape(b.sizes(mask)) + " does not broadcast to the attention weights' "
                    + showShape(before));
            return { -1, -1 };
        }
        attn = b.cast(attn, t);
    }
    attn = safeSoftmax(b, attn, -1);
    return { b.cast(b.matmul(attn, v), origin), attn };
}

Result<bool> refuseDropout(Decomposer& d, double p)
{
    return d.refuse("dropout_p=" + showNumber(p)
        + " is attention dropout in training mode (random); an ExecuTorch program runs inference: export the model "
          "in eval mode (dropout_p=0)");
}

// The arguments every attention kernel names alike: query, key, value, is_causal and scale.
Sdpa sdpaOperands(const ArgMap& a)
{
    Sdpa p;
    p.query = Decomposer::tensor(a, "query");
    p.key = Decomposer::tensor(a, "key");
    p.value = Decomposer::tensor(a, "value");
    p.causal = Decomposer::flag(a, "is_causal");
    p.scale = Decomposer::number(a, "scale");
    return p;
}

// scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal, *, scale, enable_gqa): the bool mask is
// converted to an additive one of the query's dtype, then the math kernel. (On CPU, torch's backend choice may route
// through _scaled_dot_product_flash_attention_for_cpu, whose decomposition is the same math kernel; its layout-only
// permute/clone/permute tail does not change the values.)
Result<bool> decomposeSdpa(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const double dropout = Decomposer::number(a, "dropout_p").value_or(0.0);
    if (dropout != 0.0)
        return refuseDropout(d, dropout);
    Sdpa p = sdpaOperands(a);
    p.gqa = Decomposer::flag(a, "enable_gqa");
    const int mask = Decomposer::tensor(a, "attn_mask");
    if (p.causal && mask >= 0)
        return d.invalid("an explicit attn_mask must not be set when is_causal=True (torch refuses both)");
    if (p.query >= 0)
        p.mask = additiveMask(d.b, mask, d.b.dtype(p.query));
    return d.finish({ sdpaMath(d.b, p).first });
}

// _scaled_dot_product_flash_attention_for_cpu(q, k, v, dropout_p, is_causal, *, attn_mask, scale): torch's
// decomposition is the math kernel with enable_gqa = (q.size(1) != k.size(1)). The logsumexp output is not computed
// (torch's decomposition does not compute it either).
Result<bool> decomposeFlashForCpu(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const double dropout = Decomposer::number(a, "dropout_p").value_or(0.0);
    if (dropout != 0.0)
        return refuseDropout(d, dropout);
    Sdpa p = sdpaOperands(a);
    if (p.query < 0 || p.key < 0 || p.value < 0 || d.b.rank(p.query) != 4 || d.b.rank(p.key) != 4
        || d.b.rank(p.value) != 4)
        return d.invalid("query, key and value must be 4-dimensional");
    p.gqa = d.b.size(p.query, 1) != d.b.size(p.key, 1);
    p.mask = additiveMask(d.b, Decomposer::tensor(a, "attn_mask"), d.b.dtype(p.query));
    return d.finish({ sdpaMath(d.b, p).first, -1 });
}

// _scaled_dot_product_attention_math(q, k, v, attn_mask, dropout_p, is_causal, dropout_mask, *, scale, enable_gqa)
// -> (output, attention weights). Its mask is added as given (callers convert bool masks first).
Result<bool> decomposeSdpaMath(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const double dropout = Decomposer::number(a, "dropout_p").value_or(0.0);
    if (dropout != 0.0)
        return refuseDropout(d, dropout);
    Sdpa p = sdpaOperands(a);
    p.mask = Decomposer::tensor(a, "attn_mask");
    p.gqa = Decomposer::flag(a, "enable_gqa");
    if (p.causal && p.mask >= 0)
        return d.invalid("an explicit attn_mask must not be set when is_causal=True (torch refuses both)");
    const auto [out, attn] = sdpaMath(d.b, p);
    return d.finish({ out, attn });
}

Result<bool> decomposeSafeSoftmax(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    const auto dtype = Decomposer::number(a, "dtype");
    return d.finish({ safeSoftmax(d.b, Decomposer::tensor(a, "self"), Decomposer::integer(a, "dim"),
        dtype ? std::optional<ScalarType>(ScalarType(int(*dtype))) : std::nullopt) });
}

// ---------------------------------------------------------------------------------------------------------
// baddbmm, addbmm
// ---------------------------------------------------------------------------------------------------------

// baddbmm(self, b1, b2, beta, alpha), torch's decomposition: r = bmm(b1, b2); r * alpha when alpha != 1; beta == 0
// returns r (self ignored, NaN included); else (self * beta when beta != 1) + r. Integer tensors take int(beta) and
// int(alpha); half and bfloat16 compute in float (pw_cast_for_opmath).
Result<bool> decomposeBaddbmm(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    auto& b = d.b;
    int self = Decomposer::tensor(a, "self");
    int b1 = Decomposer::tensor(a, "batch1");
    int b2 = Decomposer::tensor(a, "batch2");
    if (self < 0 || b1 < 0 || b2 < 0)
        return d.invalid("baddbmm needs self, batch1 and batch2");
    double beta = Decomposer::number(a, "beta").value_or(1.0);
    double alpha = Decomposer::number(a, "alpha").value_or(1.0);
    if (!isFloatingType(b.dtype(self))) {
        beta = std::trunc(beta);
        alpha = std::trunc(alpha);
    }
    for (int* t : { &self, &b1, &b2 })
        if (isReducedFloat(b.dtype(*t)))
            *t = b.cast(*t, ScalarType::Float);
    int r = b.bmm(b1, b2);
    if (alpha != 1.0)
        r = b.binaryScalar("mul", r, scalarFor(b, r, alpha));
    if (beta == 0.0)
        return d.finish({ r });
    if (beta != 1.0)
        self = b.binaryScalar("mul", self, scalarFor(b, self, beta));
    return d.finish({ b.add(self, r) });
}

// addbmm(self, b1, b2, beta, alpha) = beta * self + alpha * sum_i b1[i] @ b2[i], accumulated as ATen's CPU kernel
// does: addmm(self, b1[0], b2[0], beta, alpha), then addmm(result, b1[i], b2[i], 1, alpha) batch by batch.
Result<bool> decomposeAddbmm(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    auto& b = d.b;
    const int self = Decomposer::tensor(a, "self");
    const int b1 = Decomposer::tensor(a, "batch1");
    const int b2 = Decomposer::tensor(a, "batch2");
    if (self < 0 || b1 < 0 || b2 < 0 || b.rank(b1) != 3 || b.rank(b2) != 3)
        return d.invalid("addbmm needs self and two 3-D batches");
    if (b.isDynamic(b1, 0))
        return d.refuse("addbmm over a dynamic number of batches (the accumulation is unrolled batch by batch)");
    const std::int64_t n = b.size(b1, 0);
    if (n == 0)
        return d.refuse("addbmm of zero batches");
    double beta = Decomposer::number(a, "beta").value_or(1.0);
    double alpha = Decomposer::number(a, "alpha").value_or(1.0);
    if (!isFloatingType(b.dtype(self))) {
        beta = std::trunc(beta);
        alpha = std::trunc(alpha);
    }
    int r = -1;
    for (std::int64_t i = 0; i < n; ++i) {
        const int m1 = b.select(b1, 0, i);
        const int m2 = b.select(b2, 0, i);
        if (i > 0) {
            r = b.addmm(r, m1, m2, 1.0, alpha);
        } else if (beta == 0.0) { // self ignored
            r = b.mm(m1, m2);
            if (alpha != 1.0)
                r = b.binaryScalar("mul", r, scalarFor(b, r, alpha));
        } else {
            r = b.addmm(self, m1, m2, beta, alpha);
        }
    }
    return d.finish({ r });
}

// ---------------------------------------------------------------------------------------------------------
// einsum (aten/src/ATen/native/Linear.cpp: einsum and sumproduct_pair)
// ---------------------------------------------------------------------------------------------------------

constexpr int kLetters = 26;
constexpr int kLabels = 2 * kLetters;
constexpr int kEllipsis = kLabels;

/** A dimension that is not (statically) 1: torch's `size != 1` (a symbolic size counts as not 1). */
bool notOne(OpBuilder& b, int x, std::int64_t dim) { return b.isDynamic(x, dim) || b.size(x, dim) != 1; }

/** sumproduct_pair: (left * right).sum(sumDims) by permutation and batch matrix multiplication. Both operands have
 *  the same rank (unsqueezed to broadcast); the result keeps the summed dimensions as 1. */
int sumproductPair(OpBuilder& b, int left, int right, const std::vector<std::int64_t>& sumDims)
{
    if (b.failed() || left < 0 || right < 0)
        return -1;
    if (b.rank(left) != b.rank(right))
        return b.error(ErrorCode::Internal, "einsum: operands of different ranks");
    if (sumDims.empty())
        return b.mul(left, right);
    const auto rank = std::int64_t(b.rank(left));
    std::vector<bool> summed(std::size_t(rank), false);
    for (const auto s : sumDims)
        summed[std::size_t(s)] = true;
    std::vector<std::int64_t> lro;
    std::vector<std::int64_t> lo;
    std::vector<std::int64_t> ro;
    IntElem lroSize = OpBuilder::lit(1);
    IntElem loSize = OpBuilder::lit(1);
    IntElem roSize = OpBuilder::lit(1);
    IntElem sumSize = OpBuilder::lit(1);
    for (std::int64_t i = 0; i < rank; ++i) {
        const bool sl = notOne(b, left, i);
        const bool sr = notOne(b, right, i);
        if (summed[std::size_t(i)]) {
            if (sl && sr)
                sumSize = b.mulInt(sumSize, b.dim(left, i));
            else if (sl)
                left = b.sum(left, { i }, true);
            else if (sr)
                right = b.sum(right, { i }, true);
        } else if (sl && sr) {
            lro.push_back(i);
            lroSize = b.mulInt(lroSize, b.dim(left, i));
        } else if (sl) {
            lo.push_back(i);
            loSize = b.mulInt(loSize, b.dim(left, i));
        } else {
            ro.push_back(i);
            roSize = b.mulInt(roSize, b.dim(right, i));
        }
    }
    // left as (lro, lo, summed), right as (lro, summed, ro); the product viewed as (lro, lo, 1 per summed, ro) and
    // permuted back to the original order of dimensions.
    Dims outSize;
    for (const auto i : lro)
        outSize.push_back(b.dim(left, i));
    for (const auto i : lo)
        outSize.push_back(b.dim(left, i));
    for (std::size_t k = 0; k < sumDims.size(); ++k)
        outSize.push_back(OpBuilder::lit(1));
    for (const auto i : ro)
        outSize.push_back(b.dim(right, i));
    std::vector<std::int64_t> lperm = lro;
    lperm.insert(lperm.end(), lo.begin(), lo.end());
    lperm.insert(lperm.end(), sumDims.begin(), sumDims.end());
    lperm.insert(lperm.end(), ro.begin(), ro.end());
    std::vector<std::int64_t> rperm = lro;
    rperm.insert(rperm.end(), sumDims.begin(), sumDims.end());
    rperm.insert(rperm.end(), ro.begin(), ro.end());
    rperm.insert(rperm.end(), lo.begin(), lo.end());
    std::vector<std::int64_t> operm(std::size_t(rank), -1);
    std::int64_t pos = 0;
    for (const auto* group : std::array<const std::vector<std::int64_t>*, 4> { &lro, &lo, &sumDims, &ro })
        for (const auto i : *group)
            operm[std::size_t(i)] = pos++;
    const int l3 = b.view(b.permute(left, lperm), Dims { lroSize, loSize, sumSize });
    const int r3 = b.view(b.permute(right, rperm), Dims { lroSize, sumSize, roSize });
    return b.permute(b.view(b.bmm(l3, r3), outSize), operm);
}

Result<bool> decomposeEinsum(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    auto& b = d.b;
    const auto equation = Decomposer::string(a, "equation");
    if (!equation)
        return d.invalid("einsum without an equation string");
    const std::vector<int> operands = Decomposer::tensorList(a, "tensors");
    if (operands.empty())
        return d.invalid("einsum(): must provide at least one operand");
    for (const int o : operands)
        if (o < 0)
            return d.invalid("einsum(): an operand is missing");
    const std::size_t numOps = operands.size();
    const auto path = Decomposer::intList(a, "path");
    auto labelOf = [](int s) { return char(s < kLetters ? 'A' + s : 'a' + (s - kLetters)); };
    auto subscriptOf = [](unsigned char c) { return std::isupper(c) ? c - 'A' : c - 'a' + kLetters; };
    auto bad = [&](const std::string& why) { return d.invalid("einsum equation '" + *equation + "': " + why); };

    // 1. Parse the equation: each operand's labels (kEllipsis for "...").
    const std::string& eq = *equation;
    const auto arrow = eq.find("->");
    const std::string lhs = eq.substr(0, arrow);
    std::vector<std::vector<int>> opLabels(1);
    bool ellipsisHere = false;
    for (std::size_t i = 0; i < lhs.size(); ++i) {
        const auto c = static_cast<unsigned char>(lhs[i]);
        if (c == ' ')
            continue;
        if (c == '.') {
            if (ellipsisHere || i + 2 >= lhs.size() || lhs[i + 1] != '.' || lhs[i + 2] != '.')
                return bad("a '.' that is not one ellipsis (...) per operand");
            i += 2;
            opLabels.back().push_back(kEllipsis);
            ellipsisHere = true;
        } else if (c == ',') {
            opLabels.emplace_back();
            ellipsisHere = false;
        } else if (std::isalpha(c)) {
            opLabels.back().push_back(subscriptOf(c));
        } else {
            return bad(std::string("invalid subscript '") + char(c) + "' (subscripts must be in [a-zA-Z])");
        }
    }
    if (opLabels.size() != numOps)
        return bad(
            "it names " + std::to_string(opLabels.size()) + " operands, the node passes " + std::to_string(numOps));
    std::array<int, kLabels> labelCount {};
    std::int64_t ellNumDim = 0;
    for (std::size_t i = 0; i < numOps; ++i) {
        const auto ndims = std::int64_t(b.rank(operands[i]));
        std::int64_t nlabels = std::int64_t(opLabels[i].size());
        bool hasEllipsis = false;
        for (const int s : opLabels[i]) {
            if (s == kEllipsis) {
                --nlabels;
                hasEllipsis = true;
                ellNumDim = std::max(ellNumDim, ndims - nlabels);
            } else {
                ++labelCount[std::size_t(s)];
            }
        }
        if (hasEllipsis ? nlabels > ndims : nlabels != ndims)
            return bad(std::to_string(nlabels) + " subscripts for operand " + std::to_string(i) + ", which has "
                + std::to_string(ndims) + " dimensions");
    }

    // 2. The aligned order: output dimensions, then contracted ones (ellipsis dims not in the output, then labels
    //    not in the output in subscript order A-Z, a-z).
    std::array<std::int64_t, kLabels> labelPerm;
    labelPerm.fill(-1);
    std::int64_t permIndex = 0;
    std::int64_t ellIndex = 0;
    bool ellInOutput = false;
    if (arrow == std::string::npos) {
        permIndex = ellNumDim; // implicit output: the ellipsis, then labels seen once, in subscript order
        ellInOutput = true;
        for (int s = 0; s < kLabels; ++s)
            if (labelCount[std::size_t(s)] == 1)
                labelPerm[std::size_t(s)] = permIndex++;
    } else {
        const std::string rhs = eq.substr(arrow + 2);
        for (std::size_t i = 0; i < rhs.size(); ++i) {
            const auto c = static_cast<unsigned char>(rhs[i]);
            if (c == ' ')
                continue;
            if (c == '.') {
                if (ellInOutput || i + 2 >= rhs.size() || rhs[i + 1] != '.' || rhs[i + 2] != '.')
                    return bad("a '.' in the output that is not one ellipsis (...)");
                i += 2;
                ellIndex = permIndex;
                permIndex += ellNumDim;
                ellInOutput = true;
            } else if (std::isalpha(c)) {
                const auto s = std::size_t(subscriptOf(c));
                if (labelCount[s] == 0 || labelPerm[s] != -1)
                    return bad(std::string("output subscript ") + char(c)
                        + (labelPerm[s] != -1 ? " appears more than once in the output"
                                              : " does not appear in the equation for any input operand"));
                labelPerm[s] = permIndex++;
            } else {
                return bad(std::string("invalid output subscript '") + char(c) + "'");
            }
        }
    }
    const std::int64_t outNumDim = permIndex;
    if (!ellInOutput) {
        ellIndex = permIndex;
        permIndex += ellNumDim;
    }
    for (std::size_t s = 0; s < std::size_t(kLabels); ++s)
        if (labelCount[s] > 0 && labelPerm[s] == -1)
            labelPerm[s] = permIndex++;

    // 3. Each operand: diagonals of repeated labels, size-1 dimensions for missing labels, permuted to the aligned
    //    order. dimCounts counts the operands in which each aligned dimension is not 1.
    std::array<std::int64_t, kLabels> labelSize;
    labelSize.fill(1);
    std::vector<std::int64_t> ellSizes(std::size_t(ellNumDim), 1);
    std::vector<int> dimCounts(std::size_t(permIndex), 0);
    std::deque<int> ops;
    for (std::size_t i = 0; i < numOps; ++i) {
        int op = operands[i];
        std::vector<std::int64_t> permutation(std::size_t(permIndex), -1);
        std::int64_t dim = 0;
        for (const int s : opLabels[i]) {
            if (s == kEllipsis) {
                const auto ndim = std::int64_t(b.rank(operands[i])) - (std::int64_t(opLabels[i].size()) - 1);
                for (auto j = ellNumDim - ndim; j < ellNumDim; ++j) {
                    if (notOne(b, op, dim)) {
                        const std::int64_t size = b.size(op, dim);
                        auto& seen = ellSizes[std::size_t(j)];
                        if (!b.isDynamic(op, dim) && seen != 1 && seen != size)
                            return bad("dimension " + std::to_string(dim) + " covered by the ellipsis in operand "
                                + std::to_string(i) + " has size " + std::to_string(size)
                                + ", which does not broadcast with the size " + std::to_string(seen) + " seen before");
                        seen = size;
                        ++dimCounts[std::size_t(ellIndex + j)];
                    }
                    permutation[std::size_t(ellIndex + j)] = dim++;
                }
            } else if (permutation[std::size_t(labelPerm[std::size_t(s)])] == -1) {
                if (notOne(b, op, dim)) {
                    const std::int64_t size = b.size(op, dim);
                    auto& seen = labelSize[std::size_t(s)];
                    if (!b.isDynamic(op, dim) && seen != 1 && seen != size)
                        return bad(std::string("subscript ") + labelOf(s) + " has size " + std::to_string(size)
                            + " for operand " + std::to_string(i) + ", which does not broadcast with the size "
                            + std::to_string(seen) + " seen before");
                    seen = size;
                    ++dimCounts[std::size_t(labelPerm[std::size_t(s)])];
                }
                permutation[std::size_t(labelPerm[std::size_t(s)])] = dim++;
            } else {
                // A repeated label: the diagonal, moved back to where the label first appeared.
                const std::int64_t prev = permutation[std::size_t(labelPerm[std::size_t(s)])];
                if (b.size(op, dim) != b.size(op, prev) || b.isDynamic(op, dim) != b.isDynamic(op, prev))
                    return bad(std::string("subscript ") + labelOf(s) + " is repeated for operand " + std::to_string(i)
                        + " but the sizes do not match");
                op = b.diagonal(op, 0, prev, dim);
                const auto r = std::int64_t(b.rank(op));
                std::vector<std::int64_t> moved;
                for (std::int64_t k = 0; k < r - 1; ++k) {
                    if (k == prev)
                        moved.push_back(r - 1);
                    moved.push_back(k);
                }
                if (prev == r - 1)
                    moved.push_back(r - 1);
                op = b.permute(op, moved);
            }
        }
        for (auto& p : permutation) {
            if (p == -1) {
                op = b.unsqueeze(op, dim);
                p = dim++;
            }
        }
        ops.push_back(b.permute(op, permutation));
    }

    // 4. Contract pairwise, left to right (or along `path`): dimensions only one operand still has are summed
    //    first, the ones both have go into the bmm of sumproduct_pair.
    if (path) {
        const std::size_t want = numOps == 1 ? 1 : (numOps - 1) * 2;
        if (path->size() != want)
            return bad("the contraction path has " + std::to_string(path->size()) + " entries, expected "
                + std::to_string(want));
    }
    std::size_t step = 0;
    while (ops.size() > 1 && !b.failed()) {
        std::int64_t i = 0;
        std::int64_t j = 1;
        if (path) {
            i = (*path)[step++];
            j = (*path)[step++];
            if (j < i)
                std::swap(i, j);
            if (i == j || i < 0 || j >= std::int64_t(ops.size()))
                return bad("invalid contraction (" + std::to_string(i) + ", " + std::to_string(j) + ") in the path");
        }
        int x = ops[std::size_t(i)];
        int y = ops[std::size_t(j)];
        ops.erase(ops.begin() + j);
        ops.erase(ops.begin() + i);
        std::vector<std::int64_t> sumDims;
        std::vector<std::int64_t> xSum;
        std::vector<std::int64_t> ySum;
        for (auto dim = outNumDim; dim < permIndex; ++dim) {
            auto& count = dimCounts[std::size_t(dim)];
            if (notOne(b, x, dim) && notOne(b, y, dim)) {
                if (--count == 1) {
                    sumDims.push_back(dim);
                    count = 0;
                }
            } else if (count == 1) {
                if (notOne(b, x, dim)) {
                    xSum.push_back(dim);
                    count = 0;
                } else if (notOne(b, y, dim)) {
                    ySum.push_back(dim);
                    count = 0;
                }
            }
        }
        if (!xSum.empty())
            x = b.sum(x, xSum, true);
        if (!ySum.empty())
            y = b.sum(y, ySum, true);
        const int r = sumproductPair(b, x, y, sumDims);
        if (path)
            ops.push_back(r);
        else
            ops.push_front(r);
    }

    // 5. The contracted dimensions (1 by now when there were several operands) leave the result.
    int result = ops.front();
    if (permIndex > outNumDim && !b.failed()) {
        if (numOps > 1) {
            Dims sizes = b.dims(result);
            sizes.erase(sizes.begin() + outNumDim, sizes.end());
            result = b.view(result, sizes);
        } else {
            std::vector<std::int64_t> dims(std::size_t(permIndex - outNumDim));
            std::iota(dims.begin(), dims.end(), outNumDim);
            result = b.sum(result, dims, false);
        }
    }
    if (std::find(operands.begin(), operands.end(), result) != operands.end())
        result = b.clone(result); // "ij->ij": the output is a copy, not the input itself
    return d.finish({ result });
}

// ---------------------------------------------------------------------------------------------------------
// Contractions of ATen's linear algebra composites (aten/src/ATen/native/Linear.cpp)
// ---------------------------------------------------------------------------------------------------------

// bilinear(x1, x2, W, b): y[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] (+ b[o]). ATen flattens the leading
// dimensions and calls _trilinear, which the runtime lacks; the same contraction as mm(x1 [N, I], W permuted to
// [I, O * J]) viewed [N, O, J], times x2 [N, 1, J], summed over J, viewed back to x1's leading dimensions + [O], plus
// the bias.
Result<bool> decomposeBilinear(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    const int x1 = Decomposer::tensor(a, "input1");
    const int x2 = Decomposer::tensor(a, "input2");
    const int w = Decomposer::tensor(a, "weight");
    const int bias = Decomposer::tensor(a, "bias");
    if (x1 < 0 || x2 < 0 || w < 0)
        return d.invalid("bilinear needs input1, input2 and weight");
    const auto r = b.rank(x1);
    if (r == 0 || b.rank(x2) != r)
        return d.invalid("bilinear(): input dimensions do not match");
    if (b.rank(w) != 3 || b.size(w, 1) != b.size(x1, -1) || b.size(w, 2) != b.size(x2, -1))
        return d.invalid("bilinear(): the weight must be [out, in1, in2]");
    Dims lead;
    IntElem rows = OpBuilder::lit(1);
    for (std::size_t k = 0; k + 1 < r; ++k) {
        lead.push_back(b.dim(x1, std::int64_t(k)));
        rows = b.mulInt(rows, lead.back());
    }
    const IntElem in1 = b.dim(w, 1), in2 = b.dim(w, 2), out = b.dim(w, 0);
    const int x1f = b.view(x1, Dims { rows, in1 });
    const int x2f = b.view(x2, Dims { rows, in2 });
    const int wf = b.view(b.permute(w, { 1, 0, 2 }), Dims { in1, b.mulInt(out, in2) });
    const int partial = b.view(b.mm(x1f, wf), Dims { rows, out, in2 });
    int y = b.sum(b.mul(partial, b.unsqueeze(x2f, 1)), { 2 }, false);
    lead.push_back(out);
    y = b.view(y, lead);
    if (bias >= 0)
        y = b.add(y, bias);
    return d.finish({ y });
}

// tensordot(a, b, dims_a, dims_b) as ATen's composite: a contracted dimension of size 1 on one side is summed away
// (keepdim) on the other; a is permuted to (its free dimensions, dims_a) and viewed [free, contracted], b to (dims_b,
// its free dimensions) and viewed [contracted, free]; mm; viewed to a's free sizes + b's free sizes.
Result<bool> decomposeTensordot(Decomposer& d)
{
    PTE_TRY(const auto a, d.args());
    OpBuilder& b = d.b;
    int t1 = Decomposer::tensor(a, "self");
    int t2 = Decomposer::tensor(a, "other");
    const auto dims1 = Decomposer::intList(a, "dims_self");
    const auto dims2 = Decomposer::intList(a, "dims_other");
    if (t1 < 0 || t2 < 0 || !dims1 || !dims2)
        return d.invalid("tensordot needs two tensors and two dimension lists");
    if (dims1->size() != dims2->size())
        return d.invalid("both dimension lists should have same length");
    if (b.dtype(t1) != b.dtype(t2))
        return d.invalid("both inputs should have same dtype");
    const auto r1 = b.rank(t1), r2 = b.rank(t2);
    std::vector<std::int64_t> c1, c2;
    for (std::size_t k = 0; k < dims1->size(); ++k) {
        c1.push_back(b.wrapDim((*dims1)[k], r1));
        c2.push_back(b.wrapDim((*dims2)[k], r2));
        if (c1.back() < 0 || c2.back() < 0)
            return d.finish({ -1 });
        if (b.isDynamic(t1, c1.back()) || b.isDynamic(t2, c2.back()))
            return d.refuse("tensordot over a dynamic dimension");
    }
    std::int64_t csize = 1;
    for (std::size_t k = 0; k < c1.size(); ++k) {
        const std::int64_t s1 = b.size(t1, c1[k]), s2 = b.size(t2, c2[k]);
        if (s2 == 1) {
            if (s1 != 1) // summing a dimension of size 1 is the identity
                t1 = b.sum(t1, { c1[k] }, true);
        } else if (s1 == 1) {
            t2 = b.sum(t2, { c2[k] }, true);
        } else if (s1 != s2) {
            return d.invalid("contracted dimensions need to match, but first has size " + std::to_string(s1)
                + " in dim " + std::to_string(c1[k]) + " and second has size " + std::to_string(s2) + " in dim "
                + std::to_string(c2[k]));
        } else {
            csize *= s1;
        }
    }
    std::vector<std::int64_t> p1, p2;
    Dims result;
    IntElem size1 = OpBuilder::lit(1), size2 = OpBuilder::lit(1);
    for (std::size_t k = 0; k < r1; ++k)
        if (std::find(c1.begin(), c1.end(), std::int64_t(k)) == c1.end()) {
            p1.push_back(std::int64_t(k));
            result.push_back(b.dim(t1, std::int64_t(k)));
            size1 = b.mulInt(size1, result.back());
        }
    p1.insert(p1.end(), c1.begin(), c1.end());
    p2 = c2;
    for (std::size_t k = 0; k < r2; ++k)
        if (std::find(c2.begin(), c2.end(), std::int64_t(k)) == c2.end()) {
            p2.push_back(std::int64_t(k));
            result.push_back(b.dim(t2, std::int64_t(k)));
            size2 = b.mulInt(size2, result.back());
        }
    const int m1 = b.view(b.permute(t1, p1), Dims { size1, OpBuilder::lit(csize) });
    const int m2 = b.view(b.permute(t2, p2), Dims { OpBuilder::lit(csize), size2 });
    return d.finish({ b.view(b.mm(m1, m2), result) });
}

const DecompositionRule kAttentionRules[] = {
    { "scaled_dot_product_attention", &decomposeSdpa,
        "torch's math kernel: q and k each times sqrt(scale) (mul), a bool mask as where(logical_not(mask), -inf, 0), "
        "is_causal as full + tril + the same where, enable_gqa as K/V heads repeated (unsqueeze_copy, expand_copy, "
        "view_copy), matmul (bmm), add of the mask, _safe_softmax, matmul (bmm); half/bfloat16 computed in float; "
        "dropout_p > 0 refused" },
    { "_scaled_dot_product_flash_attention_for_cpu", &decomposeFlashForCpu,
        "the math kernel of scaled_dot_product_attention (grouped-query when key has fewer heads than query); the "
        "logsumexp output is not computed" },
    { "_scaled_dot_product_attention_math", &decomposeSdpaMath,
        "the math kernel of scaled_dot_product_attention; both outputs (attention output and weights)" },
    { "_safe_softmax", &decomposeSafeSoftmax,
        "_softmax, then where(all(x == -inf), 0, softmax) (eq, logical_not, any, logical_not, where)" },
    { "baddbmm", &decomposeBaddbmm,
        "bmm, mul by alpha when alpha != 1, then (self * beta when beta != 1) + the product (add); beta == 0 ignores "
        "self" },
    { "addbmm", &decomposeAddbmm,
        "addmm of each batch (select_copy), accumulated in batch order as ATen's CPU kernel does" },
    { "bilinear", &decomposeBilinear,
        "view_copy of both inputs to [N, in], permute_copy + view_copy of the weight to [in1, out * in2], mm, "
        "view_copy to [N, out, in2], unsqueeze_copy, mul, sum over in2, view_copy, add (bias)" },
    { "tensordot", &decomposeTensordot,
        "ATen's composite: sum (keepdim) of a contracted dimension of size 1 against a larger one, permute_copy + "
        "view_copy of both operands, mm, view_copy to the free dimensions" },
    { "einsum", &decomposeEinsum,
        "torch's einsum: per operand diagonal_copy (repeated labels), unsqueeze_copy and permute_copy; operands "
        "contracted pairwise left to right (or along path): sum of dimensions one operand has alone, then "
        "sumproduct_pair (permute_copy, view_copy, bmm, view_copy, permute_copy), or mul when nothing is contracted; "
        "the contracted dimensions dropped (view_copy) or, for one operand, summed (sum)" },
};

} // namespace

std::span<const DecompositionRule> attentionRules() { return kAttentionRules; }

} // namespace pte::emitcore
