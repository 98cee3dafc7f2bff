// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Attention as torch.export's training IR writes it: scaled_dot_product_attention with every option (bool and float
// masks of broadcastable shapes, is_causal, scale, enable_gqa, 3-D and 4-D operands, cross attention, dynamic
// sequence length), the CPU flash-attention op and _safe_softmax of ATen-IR dumps, the baddbmm/bmm/softmax/mean
// pieces nn.MultiheadAttention leaves in the graph (a whole forward with need_weights True and False), addbmm and
// einsum. Each dump is emitted and run on ExecuTorch's runtime; the expected values come from the documented
// definitions, computed here in double by plain loops (the formula of F.scaled_dot_product_attention's docs, the
// nn.MultiheadAttention equations, einsum as a sum over all label values), not from the decomposition.
#include "dumpbuilder.h"
#include "errorcheck.h"
#include "etrunner.h"
#include "executiontestutils.h"
#include "runtimecase.h"
#include "testutils.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
using Shape = std::vector<std::int64_t>;

json negInf() { return { { "as_float", "-Infinity" } }; }

std::int64_t numel(const Shape& s)
{
    std::int64_t n = 1;
    for (const auto d : s)
        n *= d;
    return n;
}

/** Row-major offset of `idx` in a tensor of shape `s` broadcast to idx's rank (right-aligned, size-1 dims read 0). */
std::int64_t broadcastOffset(const Shape& s, const Shape& idx)
{
    std::int64_t off = 0;
    const std::size_t lead = idx.size() - s.size();
    for (std::size_t k = 0; k < s.size(); ++k)
        off = off * s[k] + (s[k] == 1 ? 0 : idx[lead + k]);
    return off;
}

/** Deterministic values k/64 in [-1, 1]: exact in float16. */
std::vector<double> halfValues(std::int64_t n, int seed)
{
    std::vector<double> v(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k)
        v[std::size_t(k)] = double((k * 37 + seed * 11) % 129 - 64) / 64.0;
    return v;
}

/** A deterministic bool pattern (1 = attend) with some zeros. */
std::vector<double> boolPattern(std::int64_t n, int seed)
{
    std::vector<double> v(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k)
        v[std::size_t(k)] = (k * 7 + seed * 3) % 5 == 0 ? 0.0 : 1.0;
    return v;
}

struct SdpaSpec
{
    Shape q, k, v; ///< [B, H, L, E] / [B, Hkv, S, E] / [B, Hkv, S, Ev], or 3-D without H
    std::optional<Shape> mask;
    bool boolMask = false;
    bool fullyMaskedRow = false; ///< bool mask: row l = 0 attends to nothing (the output row is 0)
    bool causal = false;
    std::optional<double> scale;
    bool gqa = false;
    int dtype = kFloat; ///< of query, key, value (and of a float mask)
};

/**
 * F.scaled_dot_product_attention as its documentation defines it: bias = causal / mask (-inf where a bool mask is
 * False, the float mask added), weights = softmax(q @ k^T * scale + bias) (a row masked throughout gives 0, as
 * torch's safe softmax does), output = weights @ v; with enable_gqa query head h reads key/value head h / (H / Hkv).
 */
std::vector<double> sdpaReference(const SdpaSpec& s, const std::vector<double>& q, const std::vector<double>& k,
    const std::vector<double>& v, const std::vector<double>& mask, std::vector<double>* weights = nullptr)
{
    const bool four = s.q.size() == 4;
    const std::int64_t B = s.q[0];
    const std::int64_t H = four ? s.q[1] : 1;
    const std::int64_t Hkv = four ? s.k[1] : 1;
    const std::int64_t L = s.q[s.q.size() - 2];
    const std::int64_t E = s.q.back();
    const std::int64_t S = s.k[s.k.size() - 2];
    const std::int64_t Ev = s.v.back();
    const double scale = s.scale.value_or(1.0 / std::sqrt(double(E)));
    std::vector<double> out(std::size_t(B * H * L * Ev), 0.0);
    if (weights)
        weights->assign(std::size_t(B * H * L * S), 0.0);
    for (std::int64_t b = 0; b < B; ++b)
        for (std::int64_t h = 0; h < H; ++h) {
            const std::int64_t hk = h / (H / Hkv);
            for (std::int64_t l = 0; l < L; ++l) {
                std::vector<double> score(static_cast<std::size_t>(S));
                double mx = -kInf;
                for (std::int64_t j = 0; j < S; ++j) {
                    double dot = 0;
                    for (std::int64_t e = 0; e < E; ++e)
                        dot += q[std::size_t(((b * H + h) * L + l) * E + e)]
                            * k[std::size_t(((b * Hkv + hk) * S + j) * E + e)];
                    double bias = 0;
                    if (s.causal && j > l)
                        bias = -kInf;
                    if (s.mask) {
                        const Shape idx = four ? Shape { b, h, l, j } : Shape { b, l, j };
                        const double m = mask[std::size_t(broadcastOffset(*s.mask, idx))];
                        bias += s.boolMask ? (m != 0 ? 0.0 : -kInf) : m;
                    }
                    score[std::size_t(j)] = dot * scale + bias;
                    mx = std::max(mx, score[std::size_t(j)]);
                }
                if (mx == -kInf)
                    continue; // every key masked: 0
                double total = 0;
                for (auto& x : score) {
                    x = std::exp(x - mx);
                    total += x;
                }
                if (weights)
                    for (std::int64_t j = 0; j < S; ++j)
                        (*weights)[std::size_t(((b * H + h) * L + l) * S + j)] = score[std::size_t(j)] / total;
                for (std::int64_t e = 0; e < Ev; ++e) {
                    double acc = 0;
                    for (std::int64_t j = 0; j < S; ++j)
                        acc += score[std::size_t(j)] / total * v[std::size_t(((b * Hkv + hk) * S + j) * Ev + e)];
                    out[std::size_t(((b * H + h) * L + l) * Ev + e)] = acc;
                }
            }
        }
    return out;
}

/** The inputs, the node's arguments (as torch.export writes them: defaults omitted, scale and enable_gqa keyword-only)
 *  and the expected output of one scaled_dot_product_attention call. */
Case sdpaCase(const SdpaSpec& s, json* argsOut = nullptr)
{
    Case c;
    const bool half = s.dtype == kHalf;
    const auto q = half ? halfValues(numel(s.q), 11) : values(std::size_t(numel(s.q)), 11, 1.5);
    const auto k = half ? halfValues(numel(s.k), 12) : values(std::size_t(numel(s.k)), 12, 1.5);
    const auto v = half ? halfValues(numel(s.v), 13) : values(std::size_t(numel(s.v)), 13);
    c.in("q", s.q, q, s.dtype).in("k", s.k, k, s.dtype).in("v", s.v, v, s.dtype);
    std::vector<double> mask;
    json args = json::array({ arg("query", T("q")), arg("key", T("k")), arg("value", T("v")) });
    if (s.mask) {
        if (s.boolMask) {
            mask = boolPattern(numel(*s.mask), 1);
            if (s.fullyMaskedRow) { // query row 0 attends to no key, in every batch and head
                const std::int64_t S = s.mask->back();
                const std::int64_t L = (*s.mask)[s.mask->size() - 2];
                for (std::int64_t base = 0; base < numel(*s.mask); base += L * S)
                    for (std::int64_t j = 0; j < S; ++j)
                        mask[std::size_t(base + j)] = 0.0;
            }
            c.in("mask", *s.mask, mask, kBool);
        } else {
            mask = half ? halfValues(numel(*s.mask), 14) : values(std::size_t(numel(*s.mask)), 14, 2.0);
            c.in("mask", *s.mask, mask, s.dtype);
        }
        args.push_back(arg("attn_mask", T("mask")));
    }
    if (s.causal)
        args.push_back(arg("is_causal", B(true)));
    if (s.scale)
        args.push_back(kwarg("scale", F(*s.scale)));
    if (s.gqa)
        args.push_back(kwarg("enable_gqa", B(true)));
    Shape out = s.q;
    out.back() = s.v.back();
    c.expect(out, sdpaReference(s, q, k, v, mask), s.dtype);
    if (argsOut)
        *argsOut = args;
    else {
        c.dump.node("scaled_dot_product_attention", "scaled_dot_product_attention.default", args, out, s.dtype);
        c.dump.output("scaled_dot_product_attention");
    }
    return c;
}

// ---- einsum: the sum over every value of every label

struct Operand
{
    Shape shape;
    std::vector<double> v;
};

/** einsum by its definition: each output element is the sum, over all values of the labels not in the output, of the
 *  product of the operands' elements ("..." expands to broadcast dimensions, right-aligned). */
std::vector<double> einsumReference(const std::string& eq, const std::vector<Operand>& ops, Shape* outShape)
{
    const auto arrow = eq.find("->");
    const std::string lhs = eq.substr(0, arrow);
    std::vector<std::string> terms(1);
    for (const char ch : lhs) {
        if (ch == ',')
            terms.emplace_back();
        else if (ch != ' ')
            terms.back() += ch;
    }
    // "..." becomes the labels '0'..'9', right-aligned across operands.
    std::size_t ell = 0;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const auto p = terms[i].find("...");
        if (p != std::string::npos)
            ell = std::max(ell, ops[i].shape.size() - (terms[i].size() - 3));
    }
    auto expand = [&](const std::string& t, std::size_t rank) {
        const auto p = t.find("...");
        if (p == std::string::npos)
            return t;
        const std::size_t n = rank - (t.size() - 3);
        std::string e;
        for (std::size_t k = ell - n; k < ell; ++k)
            e += char('0' + k);
        return t.substr(0, p) + e + t.substr(p + 3);
    };
    std::vector<std::string> labels;
    std::map<char, std::int64_t> size;
    std::map<char, int> count;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        labels.push_back(expand(terms[i], ops[i].shape.size()));
        for (std::size_t d = 0; d < labels.back().size(); ++d) {
            const char l = labels.back()[d];
            size[l] = std::max(size[l], ops[i].shape[d]);
            ++count[l];
        }
    }
    std::string out;
    if (arrow != std::string::npos) {
        std::string allEll;
        for (std::size_t k = 0; k < ell; ++k)
            allEll += char('0' + k);
        for (const char ch : eq.substr(arrow + 2))
            if (ch != ' ')
                out += ch;
        const auto p = out.find("...");
        if (p != std::string::npos)
            out = out.substr(0, p) + allEll + out.substr(p + 3);
    } else {
        for (std::size_t k = 0; k < ell; ++k)
            out += char('0' + k);
        for (const auto& [l, n] : count) // std::map: 'A'..'Z' before 'a'..'z', as torch orders them
            if (n == 1 && !std::isdigit(static_cast<unsigned char>(l)))
                out += l;
    }
    std::string all = out;
    for (const auto& [l, n] : size)
        if (all.find(l) == std::string::npos)
            all += l;
    outShape->clear();
    for (const char l : out)
        outShape->push_back(size[l]);
    std::vector<double> result(std::size_t(numel(*outShape)), 0.0);
    std::map<char, std::int64_t> at;
    for (const char l : all)
        at[l] = 0;
    for (;;) {
        double prod = 1;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            std::int64_t off = 0;
            for (std::size_t d = 0; d < labels[i].size(); ++d)
                off = off * ops[i].shape[d] + (ops[i].shape[d] == 1 ? 0 : at[labels[i][d]]);
            prod *= ops[i].v[std::size_t(off)];
        }
        std::int64_t o = 0;
        for (const char l : out)
            o = o * size[l] + at[l];
        result[std::size_t(o)] += prod;
        std::size_t k = all.size();
        while (k > 0) {
            --k;
            if (++at[all[k]] < size[all[k]])
                break;
            at[all[k]] = 0;
            if (k == 0)
                return result;
        }
        if (all.empty())
            return result;
    }
}

// ---- nn.MultiheadAttention

struct MhaSpec
{
    bool batchFirst = true;
    bool needWeights = true;
    bool keyPaddingMask = false;
    enum
    {
        None,
        BoolMask,
        FloatMask
    } attnMask = None;
};

constexpr std::int64_t kB = 2, kL = 5, kE = 8, kH = 2, kHd = kE / kH;

} // namespace

class TestLoweringAttention : public QObject
{
    Q_OBJECT

    static void runSdpa(const SdpaSpec& s, const char* label)
    {
        const Case c = sdpaCase(s);
        QVERIFY_RUNS_ON_RUNTIME(c, label);
    }

private Q_SLOTS:
    // ---- scaled_dot_product_attention

    void sdpaWithoutMask()
    {
        // A ViT/BERT self-attention block: batch 2, 4 heads, 6 tokens, head dim 8; scale 1/sqrt(8).
        runSdpa({ { 2, 4, 6, 8 }, { 2, 4, 6, 8 }, { 2, 4, 6, 8 } }, "sdpa_no_mask");
    }

    void sdpaBoolMaskOfLxS()
    {
        // Cross attention (L=5 queries, S=7 keys), batch 1, a bool [L, S] mask (True = attend) with one query row that
        // attends to nothing: torch's safe softmax gives 0 there, not NaN.
        SdpaSpec s { { 1, 2, 5, 8 }, { 1, 2, 7, 8 }, { 1, 2, 7, 8 } };
        s.mask = Shape { 5, 7 };
        s.boolMask = true;
        s.fullyMaskedRow = true;
        runSdpa(s, "sdpa_bool_mask_LS");
    }

    void sdpaBoolMaskPerHead()
    {
        SdpaSpec s { { 2, 2, 4, 8 }, { 2, 2, 6, 8 }, { 2, 2, 6, 8 } };
        s.mask = Shape { 2, 2, 4, 6 };
        s.boolMask = true;
        runSdpa(s, "sdpa_bool_mask_BHLS");
    }

    void sdpaFloatMaskBroadcastOverHeads()
    {
        // An additive float mask [B, 1, L, S] (a padding bias), added as it is.
        SdpaSpec s { { 2, 3, 5, 8 }, { 2, 3, 5, 8 }, { 2, 3, 5, 8 } };
        s.mask = Shape { 2, 1, 5, 5 };
        runSdpa(s, "sdpa_float_mask_B1LS");
    }

    void sdpaCausal()
    {
        SdpaSpec s { { 2, 2, 6, 4 }, { 2, 2, 6, 4 }, { 2, 2, 6, 4 } };
        s.causal = true;
        runSdpa(s, "sdpa_causal");
    }

    void sdpaCausalWithMoreKeysThanQueries()
    {
        // is_causal with L != S: tril(ones(L, S)), aligned to the top-left corner.
        SdpaSpec s { { 1, 2, 4, 8 }, { 1, 2, 7, 8 }, { 1, 2, 7, 8 } };
        s.causal = true;
        runSdpa(s, "sdpa_causal_L4_S7");
    }

    void sdpaExplicitScale()
    {
        SdpaSpec s { { 2, 2, 5, 8 }, { 2, 2, 5, 8 }, { 2, 2, 5, 8 } };
        s.scale = 0.3;
        s.mask = Shape { 5, 5 };
        s.boolMask = true;
        runSdpa(s, "sdpa_scale");
    }

    void sdpaGroupedQueryAttention()
    {
        // Llama-style GQA: 4 query heads share 2 key/value heads (repeat_interleave along dim -3), causal.
        SdpaSpec s { { 2, 4, 5, 8 }, { 2, 2, 5, 8 }, { 2, 2, 5, 8 } };
        s.gqa = true;
        s.causal = true;
        runSdpa(s, "sdpa_gqa");
    }

    void sdpaThreeDimensional()
    {
        // 3-D operands [B, L, E] / [B, S, E] / [B, S, Ev] with Ev != E and a float [L, S] mask.
        SdpaSpec s { { 3, 5, 8 }, { 3, 7, 8 }, { 3, 7, 6 } };
        s.mask = Shape { 5, 7 };
        runSdpa(s, "sdpa_3d");
    }

    void sdpaHalf()
    {
        // float16 operands: ATen computes the math kernel in float and rounds the output to float16.
        SdpaSpec s { { 1, 2, 5, 8 }, { 1, 2, 6, 8 }, { 1, 2, 6, 8 } };
        s.mask = Shape { 5, 6 };
        s.boolMask = true;
        s.dtype = kHalf;
        Case c = sdpaCase(s);
        // The expected values stay unrounded (Case rounds to float32 only): the runtime's float16 output is within half
        // a float16 ulp (2^-11 relative) of them.
        c.rtol = 1e-3;
        QVERIFY_RUNS_ON_RUNTIME(c, "sdpa_half");
    }

    void sdpaMathWithWeights()
    {
        // _scaled_dot_product_attention_math (an ATen-IR dump's math kernel) returns the output and the weights; a
        // negative scale keeps its sign (q * -sqrt(|scale|), k * sqrt(|scale|)); the additive mask is added as given.
        SdpaSpec s { { 2, 2, 4, 8 }, { 2, 2, 6, 8 }, { 2, 2, 6, 4 } };
        s.mask = Shape { 2, 1, 4, 6 };
        s.scale = -0.2;
        json ignored;
        Case c = sdpaCase(s, &ignored);
        c.expected.clear();
        std::vector<double> weights;
        const auto out =
            sdpaReference(s, c.inputs[0].values, c.inputs[1].values, c.inputs[2].values, c.inputs[3].values, &weights);
        c.dump.tupleNode("_scaled_dot_product_attention_math", "_scaled_dot_product_attention_math.default",
            json::array({ arg("query", T("q")), arg("key", T("k")), arg("value", T("v")), arg("attn_mask", T("mask")),
                kwarg("scale", F(-0.2)) }),
            { { "getitem", { 2, 2, 4, 4 } }, { "getitem_1", { 2, 2, 4, 6 } } });
        c.dump.output("getitem");
        c.dump.output("getitem_1");
        c.expect({ 2, 2, 4, 4 }, out).expect({ 2, 2, 4, 6 }, weights);
        QVERIFY_RUNS_ON_RUNTIME(c, "sdpa_math");
    }

    void sdpaDynamicSequenceLength()
    {
        // A decoder's causal self-attention with the sequence length s0 dynamic (at most 12), run at the upper
        // bound: the causal mask is built from the runtime sizes.
        SdpaSpec s { { 1, 2, 12, 8 }, { 1, 2, 12, 8 }, { 1, 2, 12, 8 } };
        s.causal = true;
        Case c = sdpaCase(s);
        for (const char* t : { "q", "k", "v", "scaled_dot_product_attention" })
            c.dump.dynamic(t, 2, "s0", 12);
        QVERIFY_RUNS_ON_RUNTIME(c, "sdpa_dynamic_causal");
    }

    void sdpaDynamicSequenceLengthWithMask()
    {
        // Dynamic length with a bool [B, 1, 1, S] padding mask and grouped-query heads.
        SdpaSpec s { { 1, 4, 10, 8 }, { 1, 2, 10, 8 }, { 1, 2, 10, 8 } };
        s.mask = Shape { 1, 1, 1, 10 };
        s.boolMask = true;
        s.gqa = true;
        Case c = sdpaCase(s);
        for (const char* t : { "q", "k", "v", "scaled_dot_product_attention" })
            c.dump.dynamic(t, 2, "s0", 10);
        c.dump.dynamic("mask", 3, "s0", 10);
        QVERIFY_RUNS_ON_RUNTIME(c, "sdpa_dynamic_mask_gqa");
    }

    void flashAttentionForCpu()
    {
        // The op an ATen-IR dump (torch's SDPA routed to the CPU flash kernel) holds: additive mask and scale are
        // keyword-only; the logsumexp output is unused.
        SdpaSpec s { { 2, 2, 5, 8 }, { 2, 2, 5, 8 }, { 2, 2, 5, 8 } };
        s.mask = Shape { 2, 1, 5, 5 };
        s.scale = 0.25;
        json ignored;
        Case c = sdpaCase(s, &ignored);
        c.dump.tupleNode("_scaled_dot_product_flash_attention_for_cpu",
            "_scaled_dot_product_flash_attention_for_cpu.default",
            json::array({ arg("query", T("q")), arg("key", T("k")), arg("value", T("v")), kwarg("attn_mask", T("mask")),
                kwarg("scale", F(0.25)) }),
            { { "getitem", { 2, 2, 5, 8 } }, { "getitem_1", { 2, 2, 5 } } });
        c.dump.output("getitem");
        QVERIFY_RUNS_ON_RUNTIME(c, "sdpa_flash_for_cpu");
    }

    void flashAttentionForCpuCausal()
    {
        SdpaSpec s { { 1, 2, 6, 4 }, { 1, 2, 6, 4 }, { 1, 2, 6, 4 } };
        s.causal = true;
        json ignored;
        Case c = sdpaCase(s, &ignored);
        c.dump.tupleNode("_scaled_dot_product_flash_attention_for_cpu",
            "_scaled_dot_product_flash_attention_for_cpu.default",
            json::array({ arg("query", T("q")), arg("key", T("k")), arg("value", T("v")), arg("is_causal", B(true)) }),
            { { "getitem", { 1, 2, 6, 4 } }, { "getitem_1", { 1, 2, 6 } } });
        c.dump.output("getitem");
        QVERIFY_RUNS_ON_RUNTIME(c, "sdpa_flash_for_cpu_causal");
    }

    void safeSoftmax()
    {
        // _safe_softmax(masked_fill(x, m, -inf), -1): a row masked throughout is 0, the others are softmax rows.
        const auto x = values(12, 21, 2.0);
        const std::vector<double> m { 0, 1, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1 };
        Case c;
        c.in("x", { 3, 4 }, x).in("m", { 3, 4 }, m, kBool);
        c.dump.node("masked_fill", "masked_fill.Scalar",
            json::array({ arg("self", T("x")), arg("mask", T("m")), arg("value", negInf()) }), { 3, 4 });
        c.dump.node("_safe_softmax", "_safe_softmax.default",
            json::array({ arg("self", T("masked_fill")), arg("dim", I(-1)) }), { 3, 4 });
        c.dump.output("_safe_softmax");
        std::vector<double> want(12, 0.0);
        for (int r = 0; r < 3; ++r) {
            double total = 0;
            for (int j = 0; j < 4; ++j)
                total += m[std::size_t(r * 4 + j)] != 0 ? 0.0 : std::exp(x[std::size_t(r * 4 + j)]);
            for (int j = 0; j < 4; ++j)
                if (total > 0 && m[std::size_t(r * 4 + j)] == 0)
                    want[std::size_t(r * 4 + j)] = std::exp(x[std::size_t(r * 4 + j)]) / total;
        }
        c.expect({ 3, 4 }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "safe_softmax");
    }

    void attentionDropoutIsRefused()
    {
        SdpaSpec s { { 1, 2, 4, 8 }, { 1, 2, 4, 8 }, { 1, 2, 4, 8 } };
        json args;
        Case c = sdpaCase(s, &args);
        args.push_back(arg("dropout_p", F(0.1)));
        c.dump.node("scaled_dot_product_attention", "scaled_dot_product_attention.default", args, { 1, 2, 4, 8 });
        c.dump.output("scaled_dot_product_attention");
        auto ep = c.dump.build("sdpa_dropout");
        QVERIFY2(ep.has_value(), ep ? "" : ep.error().message.c_str());
        const auto emitted = emitAndReload({ { "forward", *ep } }, "sdpa_dropout");
        QVERIFY_ERROR(emitted, ErrorCode::Unsupported, "scaled_dot_product_attention", "dropout_p=0.1", "training mode",
            "eval mode");
    }

    void causalWithExplicitMaskIsRefused()
    {
        SdpaSpec s { { 1, 2, 4, 8 }, { 1, 2, 4, 8 }, { 1, 2, 4, 8 } };
        s.mask = Shape { 4, 4 };
        json args;
        Case c = sdpaCase(s, &args);
        args.push_back(arg("is_causal", B(true)));
        c.dump.node("scaled_dot_product_attention", "scaled_dot_product_attention.default", args, { 1, 2, 4, 8 });
        c.dump.output("scaled_dot_product_attention");
        auto ep = c.dump.build("sdpa_causal_mask");
        QVERIFY2(ep.has_value(), ep ? "" : ep.error().message.c_str());
        const auto emitted = emitAndReload({ { "forward", *ep } }, "sdpa_causal_mask");
        QVERIFY_ERROR(emitted, ErrorCode::InvalidInput, "scaled_dot_product_attention", "attn_mask", "is_causal=True");
    }

    // ---- baddbmm, bmm, addbmm

    void baddbmm_data()
    {
        QTest::addColumn<double>("beta");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<bool>("broadcastSelf");
        QTest::newRow("defaults") << 1.0 << 1.0 << false;
        QTest::newRow("alpha 0.5, beta 2") << 2.0 << 0.5 << false;
        QTest::newRow("self [1, L, S] broadcast") << 1.0 << 1.0 << true;
        QTest::newRow("beta 0 ignores a NaN self") << 0.0 << 1.0 << false;
        QTest::newRow("beta 0, alpha 3") << 0.0 << 3.0 << true;
    }

    void baddbmm()
    {
        QFETCH(double, beta);
        QFETCH(double, alpha);
        QFETCH(bool, broadcastSelf);
        const std::int64_t n = 3, l = 4, m = 5, p = 6;
        const Shape selfShape = broadcastSelf ? Shape { 1, l, p } : Shape { n, l, p };
        auto self = values(std::size_t(numel(selfShape)), 31);
        if (beta == 0.0)
            self[1] = std::numeric_limits<double>::quiet_NaN(); // "nan and inf in it will not be propagated"
        const auto b1 = values(std::size_t(n * l * m), 32);
        const auto b2 = values(std::size_t(n * m * p), 33);
        Case c;
        c.in("self", selfShape, self).in("b1", { n, l, m }, b1).in("b2", { n, m, p }, b2);
        json args = json::array({ arg("self", T("self")), arg("batch1", T("b1")), arg("batch2", T("b2")) });
        if (beta != 1.0)
            args.push_back(kwarg("beta", F(beta)));
        if (alpha != 1.0)
            args.push_back(kwarg("alpha", F(alpha)));
        c.dump.node("baddbmm", "baddbmm.default", args, { n, l, p });
        c.dump.output("baddbmm");
        std::vector<double> want(static_cast<std::size_t>(n * l * p));
        for (std::int64_t b = 0; b < n; ++b)
            for (std::int64_t i = 0; i < l; ++i)
                for (std::int64_t j = 0; j < p; ++j) {
                    double acc = 0;
                    for (std::int64_t k = 0; k < m; ++k)
                        acc += b1[std::size_t((b * l + i) * m + k)] * b2[std::size_t((b * m + k) * p + j)];
                    const double s = self[std::size_t(((broadcastSelf ? 0 : b) * l + i) * p + j)];
                    want[std::size_t((b * l + i) * p + j)] = (beta == 0.0 ? 0.0 : beta * s) + alpha * acc;
                }
        c.expect({ n, l, p }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "baddbmm");
    }

    void addbmm()
    {
        // addbmm(self [p], b1, b2, beta=0.5, alpha=2): beta * self + alpha * sum over the batch of b1[i] @ b2[i].
        const std::int64_t n = 3, l = 4, m = 5, p = 6;
        const auto self = values(std::size_t(p), 41);
        const auto b1 = values(std::size_t(n * l * m), 42);
        const auto b2 = values(std::size_t(n * m * p), 43);
        Case c;
        c.in("self", { p }, self).in("b1", { n, l, m }, b1).in("b2", { n, m, p }, b2);
        c.dump.node("addbmm", "addbmm.default",
            json::array({ arg("self", T("self")), arg("batch1", T("b1")), arg("batch2", T("b2")), kwarg("beta", F(0.5)),
                kwarg("alpha", I(2)) }),
            { l, p });
        c.dump.output("addbmm");
        std::vector<double> want(static_cast<std::size_t>(l * p));
        for (std::int64_t i = 0; i < l; ++i)
            for (std::int64_t j = 0; j < p; ++j) {
                double acc = 0;
                for (std::int64_t b = 0; b < n; ++b)
                    for (std::int64_t k = 0; k < m; ++k)
                        acc += b1[std::size_t((b * l + i) * m + k)] * b2[std::size_t((b * m + k) * p + j)];
                want[std::size_t(i * p + j)] = 0.5 * self[std::size_t(j)] + 2 * acc;
            }
        c.expect({ l, p }, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "addbmm");
    }

    // ---- einsum

    void einsum_data()
    {
        QTest::addColumn<QString>("equation");
        QTest::addColumn<QList<QList<qint64>>>("shapes");
        using S = QList<qint64>;
        QTest::newRow("attention scores") << QString("bhqd,bhkd->bhqk") << QList<S> { { 2, 3, 4, 5 }, { 2, 3, 6, 5 } };
        QTest::newRow("attention values") << QString("bhqk,bhkd->bhqd") << QList<S> { { 2, 3, 4, 6 }, { 2, 3, 6, 5 } };
        QTest::newRow("batched matmul") << QString("bij,bjk->bik") << QList<S> { { 3, 4, 5 }, { 3, 5, 2 } };
        QTest::newRow("matmul") << QString("ij,jk->ik") << QList<S> { { 4, 5 }, { 5, 3 } };
        QTest::newRow("implicit output") << QString("ij,jk") << QList<S> { { 4, 5 }, { 5, 3 } };
        QTest::newRow("transpose") << QString("ij->ji") << QList<S> { { 3, 5 } };
        QTest::newRow("row sums") << QString("ij->i") << QList<S> { { 4, 6 } };
        QTest::newRow("total") << QString("ij->") << QList<S> { { 4, 6 } };
        QTest::newRow("outer product") << QString("i,j->ij") << QList<S> { { 4 }, { 5 } };
        QTest::newRow("dot product") << QString("i,i->") << QList<S> { { 7 }, { 7 } };
        QTest::newRow("diagonal") << QString("ii->i") << QList<S> { { 5, 5 } };
        QTest::newRow("trace") << QString("ii") << QList<S> { { 4, 4 } };
        QTest::newRow("batched diagonal") << QString("bii->bi") << QList<S> { { 2, 4, 4 } };
        QTest::newRow("three operands") << QString("ij,jk,kl->il") << QList<S> { { 3, 4 }, { 4, 5 }, { 5, 2 } };
        QTest::newRow("ellipsis, broadcast batch")
            << QString("...ij,...jk->...ik") << QList<S> { { 2, 3, 4, 5 }, { 3, 5, 2 } };
        QTest::newRow("contraction over two labels")
            << QString("bijk,bjkl->bil") << QList<S> { { 2, 3, 4, 5 }, { 2, 4, 5, 3 } };
        QTest::newRow("label summed in one operand") << QString("ij,jk->k") << QList<S> { { 3, 4 }, { 4, 5 } };
        QTest::newRow("upper-case labels") << QString("bN,NM->bM") << QList<S> { { 2, 4 }, { 4, 3 } };
    }

    void einsum()
    {
        QFETCH(QString, equation);
        QFETCH(QList<QList<qint64>>, shapes);
        const std::string eq = equation.toStdString();
        Case c;
        std::vector<Operand> ops;
        std::vector<std::string> names;
        for (qsizetype i = 0; i < shapes.size(); ++i) {
            Operand o;
            for (const auto d : shapes[i])
                o.shape.push_back(d);
            o.v = values(std::size_t(numel(o.shape)), std::uint32_t(50 + i));
            names.push_back("x" + std::to_string(i));
            c.in(names.back(), o.shape, o.v);
            ops.push_back(std::move(o));
        }
        Shape out;
        const auto want = einsumReference(eq, ops, &out);
        c.dump.node(
            "einsum", "einsum.default", json::array({ arg("equation", S(eq)), arg("tensors", Tensors(names)) }), out);
        c.dump.output("einsum");
        c.expect(out, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "einsum");
    }

    void einsumDynamicSequenceLength()
    {
        // Attention scores through einsum with the sequence length s0 dynamic (at most 9), run at the upper bound.
        const std::vector<Operand> ops { { { 2, 3, 9, 4 }, values(216, 81) }, { { 2, 3, 9, 4 }, values(216, 82) } };
        Case c;
        c.in("q", ops[0].shape, ops[0].v).in("k", ops[1].shape, ops[1].v);
        Shape out;
        const auto want = einsumReference("bhqd,bhkd->bhqk", ops, &out);
        c.dump.node("einsum", "einsum.default",
            json::array({ arg("equation", S("bhqd,bhkd->bhqk")), arg("tensors", Tensors({ "q", "k" })) }), out);
        c.dump.output("einsum");
        c.dump.dynamic("q", 2, "s0", 9);
        c.dump.dynamic("k", 2, "s0", 9);
        c.dump.dynamic("einsum", 2, "s0", 9);
        c.dump.dynamic("einsum", 3, "s0", 9);
        c.expect(out, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "einsum_dynamic");
    }

    void einsumWithContractionPath()
    {
        // torch.einsum passes opt_einsum's path for three or more operands: contract (1, 2) first, then (0, 1).
        const std::vector<Operand> ops { { { 3, 4 }, values(12, 61) }, { { 4, 5 }, values(20, 62) },
            { { 5, 2 }, values(10, 63) } };
        Case c;
        c.in("a", ops[0].shape, ops[0].v).in("b", ops[1].shape, ops[1].v).in("c", ops[2].shape, ops[2].v);
        Shape out;
        const auto want = einsumReference("ij,jk,kl->il", ops, &out);
        c.dump.node("einsum", "einsum.default",
            json::array({ arg("equation", S("ij,jk,kl->il")), arg("tensors", Tensors({ "a", "b", "c" })),
                kwarg("path", Ints({ 1, 2, 0, 1 })) }),
            out);
        c.dump.output("einsum");
        c.expect(out, want);
        QVERIFY_RUNS_ON_RUNTIME(c, "einsum_path");
    }

    void einsumOperandCountMismatchIsRefused()
    {
        Case c;
        c.in("a", { 3, 4 }, values(12, 1));
        c.dump.node("einsum", "einsum.default",
            json::array({ arg("equation", S("ij,jk->ik")), arg("tensors", Tensors({ "a" })) }), { 3, 4 });
        c.dump.output("einsum");
        auto ep = c.dump.build("einsum_bad");
        QVERIFY2(ep.has_value(), ep ? "" : ep.error().message.c_str());
        const auto emitted = emitAndReload({ { "forward", *ep } }, "einsum_bad");
        QVERIFY_ERROR(emitted, ErrorCode::InvalidInput, "einsum", "ij,jk->ik", "names 2 operands", "passes 1");
    }

    // ---- nn.MultiheadAttention, as F.multi_head_attention_forward leaves it in a training-IR graph

    void multiheadAttention_data()
    {
        QTest::addColumn<bool>("batchFirst");
        QTest::addColumn<bool>("needWeights");
        QTest::addColumn<bool>("keyPaddingMask");
        QTest::addColumn<int>("attnMask");
        QTest::addColumn<bool>("cross");
        QTest::newRow("batch_first, weights, key_padding_mask") << true << true << true << int(MhaSpec::None) << false;
        QTest::newRow("batch_first, sdpa, key_padding_mask") << true << false << true << int(MhaSpec::None) << false;
        QTest::newRow("seq first, weights, bool attn_mask")
            << false << true << false << int(MhaSpec::BoolMask) << false;
        QTest::newRow("seq first, sdpa, float attn_mask + key_padding_mask")
            << false << false << true << int(MhaSpec::FloatMask) << false;
        QTest::newRow("seq first, weights, no masks") << false << true << false << int(MhaSpec::None) << false;
        QTest::newRow("cross attention, batch_first, weights, key_padding_mask")
            << true << true << true << int(MhaSpec::None) << true;
        QTest::newRow("cross attention, seq first, sdpa, bool attn_mask")
            << false << false << false << int(MhaSpec::BoolMask) << true;
    }

    /**
     * nn.MultiheadAttention(8, 2) in eval mode called as mha(query, key, value, key_padding_mask=..., attn_mask=...,
     * need_weights=...), written node by node as torch.export writes its slow path (F.multi_head_attention_forward):
     * self-attention (query is key is value: one packed in-projection) or cross attention (key is value: the
     * in-projection weight split into the query's and the key/value's). need_weights=True is the explicit
     * baddbmm/bmm, softmax, bmm and the mean of the weights over the heads; need_weights=False is
     * scaled_dot_product_attention.
     */
    void multiheadAttention()
    {
        QFETCH(bool, batchFirst);
        QFETCH(bool, needWeights);
        QFETCH(bool, keyPaddingMask);
        QFETCH(int, attnMask);
        QFETCH(bool, cross);
        MhaSpec s { batchFirst, needWeights, keyPaddingMask, decltype(MhaSpec::attnMask)(attnMask) };
        const std::int64_t B = kB, E = kE, H = kH, hd = kHd, BH = kB * kH;
        const std::int64_t S = kL; // source (key/value) length
        const std::int64_t Lq = cross ? 3 : kL; // target (query) length
        const auto win = values(std::size_t(3 * E * E), 71, 0.5);
        const auto bin = values(std::size_t(3 * E), 72, 0.2);
        const auto wout = values(std::size_t(E * E), 73, 0.5);
        const auto bout = values(std::size_t(E), 74, 0.2);
        // [B, len, E] (batch_first) or [len, B, E]
        const auto xq = values(std::size_t(B * Lq * E), 75);
        const auto xkv = cross ? values(std::size_t(B * S * E), 77) : xq;
        // key_padding_mask [B, S]: True = ignore that key (every query keeps some key).
        const std::vector<double> kpm { 0, 0, 0, 1, 1, 0, 1, 0, 0, 0 };
        // attn_mask [Lq, S]: bool True = not allowed to attend (here: keys after the query's position); float added.
        std::vector<double> am(std::size_t(Lq * S), 0.0);
        if (s.attnMask == MhaSpec::BoolMask)
            for (std::int64_t i = 0; i < Lq; ++i)
                for (std::int64_t j = 0; j < S; ++j)
                    am[std::size_t(i * S + j)] = j > i ? 1.0 : 0.0;
        else if (s.attnMask == MhaSpec::FloatMask)
            am = values(std::size_t(Lq * S), 76);

        Case c;
        c.dump.weight("p_in_proj_weight", "in_proj_weight", { 3 * E, E }, win);
        c.dump.weight("p_in_proj_bias", "in_proj_bias", { 3 * E }, bin);
        c.dump.weight("p_out_proj_weight", "out_proj.weight", { E, E }, wout);
        c.dump.weight("p_out_proj_bias", "out_proj.bias", { E }, bout);
        auto layout = [&](std::int64_t len) { return s.batchFirst ? Shape { B, len, E } : Shape { len, B, E }; };
        c.in("query", layout(Lq), xq);
        if (cross)
            c.in("memory", layout(S), xkv);
        if (s.keyPaddingMask)
            c.in("key_padding_mask", { B, S }, kpm, kBool);
        if (s.attnMask != MhaSpec::None)
            c.in("attn_mask", { Lq, S }, am, s.attnMask == MhaSpec::BoolMask ? kBool : kFloat);
        auto& g = c.dump;
        auto node = [&](const std::string& name, const std::string& target, json args, Shape shape) {
            g.node(name, target, std::move(args), std::move(shape));
        };
        // nn.MultiheadAttention.forward: bool masks become float ones (F._canonical_mask), batch_first transposes.
        std::string kpmF;
        std::string amF = s.attnMask == MhaSpec::FloatMask ? "attn_mask" : "";
        if (s.keyPaddingMask) {
            node("zeros_like", "zeros_like.default",
                json::array({ arg("self", T("key_padding_mask")), kwarg("dtype", Dtype(kFloat)) }), { B, S });
            node("masked_fill_", "masked_fill_.Scalar",
                json::array(
                    { arg("self", T("zeros_like")), arg("mask", T("key_padding_mask")), arg("value", negInf()) }),
                { B, S });
            kpmF = "masked_fill_";
        }
        if (s.attnMask == MhaSpec::BoolMask) {
            node("zeros_like_1", "zeros_like.default",
                json::array({ arg("self", T("attn_mask")), kwarg("dtype", Dtype(kFloat)) }), { Lq, S });
            node("masked_fill__1", "masked_fill_.Scalar",
                json::array({ arg("self", T("zeros_like_1")), arg("mask", T("attn_mask")), arg("value", negInf()) }),
                { Lq, S });
            amF = "masked_fill__1";
        }
        std::string qIn = "query";
        std::string kvIn = cross ? "memory" : "query";
        if (s.batchFirst) {
            node("transpose", "transpose.int",
                json::array({ arg("self", T("query")), arg("dim0", I(1)), arg("dim1", I(0)) }), { Lq, B, E });
            qIn = kvIn = "transpose";
            if (cross) {
                node("transpose_8", "transpose.int",
                    json::array({ arg("self", T("memory")), arg("dim0", I(1)), arg("dim1", I(0)) }), { S, B, E });
                kvIn = "transpose_8";
            }
        }
        // F.multi_head_attention_forward: the in-projection (_in_projection_packed), heads folded into the batch.
        std::string qProj;
        std::string kvPacked;
        std::int64_t packs = 3;
        if (!cross) {
            node("linear", "linear.default",
                json::array(
                    { arg("input", T(qIn)), arg("weight", T("p_in_proj_weight")), arg("bias", T("p_in_proj_bias")) }),
                { Lq, B, 3 * E });
            kvPacked = "linear";
        } else {
            packs = 2;
            g.listNode("split_with_sizes", "split_with_sizes.default",
                json::array({ arg("self", T("p_in_proj_weight")), arg("split_sizes", Ints({ E, 2 * E })) }),
                { { "getitem", { E, E } }, { "getitem_1", { 2 * E, E } } });
            g.listNode("split_with_sizes_1", "split_with_sizes.default",
                json::array({ arg("self", T("p_in_proj_bias")), arg("split_sizes", Ints({ E, 2 * E })) }),
                { { "getitem_2", { E } }, { "getitem_3", { 2 * E } } });
            node("linear", "linear.default",
                json::array({ arg("input", T(qIn)), arg("weight", T("getitem")), arg("bias", T("getitem_2")) }),
                { Lq, B, E });
            node("linear_2", "linear.default",
                json::array({ arg("input", T(kvIn)), arg("weight", T("getitem_1")), arg("bias", T("getitem_3")) }),
                { S, B, 2 * E });
            qProj = "linear";
            kvPacked = "linear_2";
        }
        // proj.unflatten(-1, (n, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous(), then proj[0], proj[1]...
        const std::int64_t packedLen = cross ? S : Lq;
        node("view", "view.default",
            json::array({ arg("self", T(kvPacked)), arg("size", Ints({ packedLen, B, packs, E })) }),
            { packedLen, B, packs, E });
        node("unsqueeze", "unsqueeze.default", json::array({ arg("self", T("view")), arg("dim", I(0)) }),
            { 1, packedLen, B, packs, E });
        node("transpose_1", "transpose.int",
            json::array({ arg("self", T("unsqueeze")), arg("dim0", I(0)), arg("dim1", I(-2)) }),
            { packs, packedLen, B, 1, E });
        node("squeeze", "squeeze.dim", json::array({ arg("self", T("transpose_1")), arg("dim", I(-2)) }),
            { packs, packedLen, B, E });
        node("clone", "clone.default",
            json::array({ arg("self", T("squeeze")), kwarg("memory_format", MemoryFormat(1)) }),
            { packs, packedLen, B, E });
        for (std::int64_t k = 0; k < packs; ++k)
            node(k ? "select_" + std::to_string(k) : "select", "select.int",
                json::array({ arg("self", T("clone")), arg("dim", I(0)), arg("index", I(k)) }), { packedLen, B, E });
        const std::vector<std::string> qkv = cross ? std::vector<std::string> { qProj, "select", "select_1" }
                                                   : std::vector<std::string> { "select", "select_1", "select_2" };
        if (!amF.empty()) {
            node("unsqueeze_1", "unsqueeze.default", json::array({ arg("self", T(amF)), arg("dim", I(0)) }),
                { 1, Lq, S });
            amF = "unsqueeze_1";
        }
        for (int k = 0; k < 3; ++k) {
            const std::int64_t len = k == 0 ? Lq : S;
            const std::string v = "view_" + std::to_string(k + 1);
            const std::string t = "transpose_" + std::to_string(k + 2);
            node(v, "view.default",
                json::array({ arg("self", T(qkv[std::size_t(k)])), arg("size", Ints({ len, BH, hd })) }),
                { len, BH, hd });
            node(t, "transpose.int", json::array({ arg("self", T(v)), arg("dim0", I(0)), arg("dim1", I(1)) }),
                { BH, len, hd });
        }
        // key_padding_mask.view(B, 1, 1, S).expand(-1, H, -1, -1).reshape(B * H, 1, S), merged with attn_mask.
        std::string mask = amF;
        if (s.keyPaddingMask) {
            node("view_4", "view.default", json::array({ arg("self", T(kpmF)), arg("size", Ints({ B, 1, 1, S })) }),
                { B, 1, 1, S });
            node("expand", "expand.default",
                json::array({ arg("self", T("view_4")), arg("size", Ints({ -1, H, -1, -1 })) }), { B, H, 1, S });
            node("clone_1", "clone.default",
                json::array({ arg("self", T("expand")), kwarg("memory_format", MemoryFormat(1)) }), { B, H, 1, S });
            node("_unsafe_view", "_unsafe_view.default",
                json::array({ arg("self", T("clone_1")), arg("size", Ints({ BH, 1, S })) }), { BH, 1, S });
            mask = "_unsafe_view";
            if (!amF.empty()) {
                node("add", "add.Tensor", json::array({ arg("self", T(amF)), arg("other", T("_unsafe_view")) }),
                    { BH, Lq, S });
                mask = "add";
            }
        }
        std::string heads; // the heads' outputs, before the out-projection
        if (s.needWeights) {
            node("mul", "mul.Tensor", json::array({ arg("self", T("transpose_2")), arg("other", F(0.5)) }),
                { BH, Lq, hd });
            node("transpose_5", "transpose.int",
                json::array({ arg("self", T("transpose_3")), arg("dim0", I(-2)), arg("dim1", I(-1)) }), { BH, hd, S });
            if (!mask.empty())
                node("baddbmm", "baddbmm.default",
                    json::array({ arg("self", T(mask)), arg("batch1", T("mul")), arg("batch2", T("transpose_5")) }),
                    { BH, Lq, S });
            else
                node("baddbmm", "bmm.default", json::array({ arg("self", T("mul")), arg("mat2", T("transpose_5")) }),
                    { BH, Lq, S });
            node(
                "softmax", "softmax.int", json::array({ arg("self", T("baddbmm")), arg("dim", I(-1)) }), { BH, Lq, S });
            node("bmm", "bmm.default", json::array({ arg("self", T("softmax")), arg("mat2", T("transpose_4")) }),
                { BH, Lq, hd });
            node("transpose_6", "transpose.int",
                json::array({ arg("self", T("bmm")), arg("dim0", I(0)), arg("dim1", I(1)) }), { Lq, BH, hd });
            heads = "transpose_6";
        } else {
            std::string m;
            if (!mask.empty()) {
                if (mask == "unsqueeze_1") { // attn_mask [1, Lq, S] alone: unsqueezed to [1, 1, Lq, S]
                    node("unsqueeze_2", "unsqueeze.default", json::array({ arg("self", T(mask)), arg("dim", I(0)) }),
                        { 1, 1, Lq, S });
                    m = "unsqueeze_2";
                } else { // [B * H, 1 or Lq, S] viewed as [B, H, -1, S]
                    const std::int64_t rows = mask == "add" ? Lq : 1;
                    node("view_5", "view.default",
                        json::array({ arg("self", T(mask)), arg("size", Ints({ B, H, -1, S })) }), { B, H, rows, S });
                    m = "view_5";
                }
            }
            const char* t[] = { "transpose_2", "transpose_3", "transpose_4" };
            for (int k = 0; k < 3; ++k) {
                const std::int64_t len = k == 0 ? Lq : S;
                node("view_" + std::to_string(k + 6), "view.default",
                    json::array({ arg("self", T(t[k])), arg("size", Ints({ B, H, len, hd })) }), { B, H, len, hd });
            }
            json args = json::array({ arg("query", T("view_6")), arg("key", T("view_7")), arg("value", T("view_8")) });
            if (!m.empty())
                args.push_back(arg("attn_mask", T(m)));
            node("scaled_dot_product_attention", "scaled_dot_product_attention.default", args, { B, H, Lq, hd });
            node("permute", "permute.default",
                json::array({ arg("self", T("scaled_dot_product_attention")), arg("dims", Ints({ 2, 0, 1, 3 })) }),
                { Lq, B, H, hd });
            heads = "permute";
        }
        node("clone_2", "clone.default",
            json::array({ arg("self", T(heads)), kwarg("memory_format", MemoryFormat(1)) }),
            s.needWeights ? Shape { Lq, BH, hd } : Shape { Lq, B, H, hd });
        node("view_9", "view.default", json::array({ arg("self", T("clone_2")), arg("size", Ints({ Lq * B, E })) }),
            { Lq * B, E });
        node("linear_1", "linear.default",
            json::array({ arg("input", T("view_9")), arg("weight", T("p_out_proj_weight")),
                arg("bias", T("p_out_proj_bias")) }),
            { Lq * B, E });
        node("view_10", "view.default", json::array({ arg("self", T("linear_1")), arg("size", Ints({ Lq, B, E })) }),
            { Lq, B, E });
        std::string out = "view_10";
        if (s.batchFirst) {
            node("transpose_7", "transpose.int",
                json::array({ arg("self", T("view_10")), arg("dim0", I(1)), arg("dim1", I(0)) }), { B, Lq, E });
            out = "transpose_7";
        }
        g.output(out);
        if (s.needWeights) {
            node("view_11", "view.default",
                json::array({ arg("self", T("softmax")), arg("size", Ints({ B, H, Lq, S })) }), { B, H, Lq, S });
            node("mean", "mean.dim", json::array({ arg("self", T("view_11")), arg("dim", Ints({ 1 })) }), { B, Lq, S });
            g.output("mean");
        }

        // The reference: nn.MultiheadAttention's equations, per batch element and head. Q = query W_q^T + b_q,
        // K = key W_k^T + b_k, V = value W_v^T + b_v (W_q, W_k, W_v: the thirds of in_proj_weight); per head
        // softmax(Q_h K_h^T / sqrt(head_dim) + masks) V_h; the heads concatenated, times W_out^T plus b_out; the
        // weights averaged over the heads.
        auto at = [&](const std::vector<double>& x, std::int64_t len, std::int64_t b, std::int64_t l, std::int64_t e) {
            return x[std::size_t(s.batchFirst ? (b * len + l) * E + e : (l * B + b) * E + e)];
        };
        auto project = [&](const std::vector<double>& x, std::int64_t len, int which) {
            std::vector<double> p(static_cast<std::size_t>(B * len * E)); // [b, l, E]
            for (std::int64_t b = 0; b < B; ++b)
                for (std::int64_t l = 0; l < len; ++l)
                    for (std::int64_t o = 0; o < E; ++o) {
                        double acc = bin[std::size_t(which * E + o)];
                        for (std::int64_t e = 0; e < E; ++e)
                            acc += at(x, len, b, l, e) * win[std::size_t((which * E + o) * E + e)];
                        p[std::size_t((b * len + l) * E + o)] = acc;
                    }
            return p;
        };
        const auto Q = project(xq, Lq, 0);
        const auto K = project(xkv, S, 1);
        const auto V = project(xkv, S, 2);
        std::vector<double> concat(std::size_t(B * Lq * E), 0.0);
        std::vector<double> weights(std::size_t(B * Lq * S), 0.0);
        for (std::int64_t b = 0; b < B; ++b)
            for (std::int64_t h = 0; h < H; ++h)
                for (std::int64_t i = 0; i < Lq; ++i) {
                    std::vector<double> sc(static_cast<std::size_t>(S));
                    double mx = -kInf;
                    for (std::int64_t j = 0; j < S; ++j) {
                        double dot = 0;
                        for (std::int64_t t = 0; t < hd; ++t)
                            dot += Q[std::size_t((b * Lq + i) * E + h * hd + t)]
                                * K[std::size_t((b * S + j) * E + h * hd + t)];
                        double bias = 0;
                        if (s.attnMask == MhaSpec::BoolMask && am[std::size_t(i * S + j)] != 0)
                            bias = -kInf;
                        if (s.attnMask == MhaSpec::FloatMask)
                            bias = am[std::size_t(i * S + j)];
                        if (s.keyPaddingMask && kpm[std::size_t(b * S + j)] != 0)
                            bias = -kInf;
                        sc[std::size_t(j)] = dot / std::sqrt(double(hd)) + bias;
                        mx = std::max(mx, sc[std::size_t(j)]);
                    }
                    double total = 0;
                    for (auto& v : sc) {
                        v = std::exp(v - mx);
                        total += v;
                    }
                    for (std::int64_t j = 0; j < S; ++j) {
                        const double w = sc[std::size_t(j)] / total;
                        weights[std::size_t((b * Lq + i) * S + j)] += w / double(H);
                        for (std::int64_t t = 0; t < hd; ++t)
                            concat[std::size_t((b * Lq + i) * E + h * hd + t)] +=
                                w * V[std::size_t((b * S + j) * E + h * hd + t)];
                    }
                }
        std::vector<double> y(static_cast<std::size_t>(B * Lq * E)); // in the query's layout
        for (std::int64_t b = 0; b < B; ++b)
            for (std::int64_t l = 0; l < Lq; ++l)
                for (std::int64_t o = 0; o < E; ++o) {
                    double acc = bout[std::size_t(o)];
                    for (std::int64_t e = 0; e < E; ++e)
                        acc += concat[std::size_t((b * Lq + l) * E + e)] * wout[std::size_t(o * E + e)];
                    y[std::size_t(s.batchFirst ? (b * Lq + l) * E + o : (l * B + b) * E + o)] = acc;
                }
        c.expect(layout(Lq), y);
        if (s.needWeights)
            c.expect({ B, Lq, S }, weights);
        QVERIFY_RUNS_ON_RUNTIME(c, "multihead_attention");
    }
};

QTEST_GUILESS_MAIN(TestLoweringAttention)
#include "tst_lowering_attention.moc"
