// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// XNNPACK profiling events to xnodes, by order (docs/delegate-payloads.md, XNNPACK events; Matching events to nodes).
#include "pte/delegateprofile.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

namespace pte {

const char* alignmentQualityName(AlignmentQuality q) noexcept
{
    switch (q) {
    case AlignmentQuality::Exact:
        return "exact";
    case AlignmentQuality::Approximate:
        return "approximate";
    case AlignmentQuality::Failed:
        break;
    }
    return "failed";
}

namespace {

/** Splits "Label text #k" into the label and k (0 when there is no counter). */
std::pair<std::string_view, std::int64_t> splitCounter(std::string_view label)
{
    const auto hash = label.rfind(" #");
    if (hash == std::string_view::npos)
        return { label, 0 };
    std::int64_t k = 0;
    const auto digits = label.substr(hash + 2);
    const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), k);
    if (r.ec != std::errc() || r.ptr != digits.data() + digits.size())
        return { label, 0 };
    return { label.substr(0, hash), k };
}

/** Lower case, letters and digits only: "Fully Connected" -> "fullyconnected". */
std::string normalise(std::string_view s)
{
    std::string out;
    for (const char c : s)
        if (std::isalnum(static_cast<unsigned char>(c)))
            out += char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/** The label families each xnode kind produces (normalised). */
const std::map<std::string, std::vector<std::string>, std::less<>>& familiesByKind()
{
    static const std::map<std::string, std::vector<std::string>, std::less<>> table {
        { "Add", { "add" } },
        { "FullyConnected", { "fullyconnected" } },
        { "Softmax", { "softmax" } },
        { "Sigmoid", { "sigmoid" } },
        { "StaticTranspose", { "transpose" } },
        { "Clamp", { "clamp" } },
        { "Conv2d", { "convolution" } },
        { "Div", { "divide", "div" } },
        { "StaticResizeBilinear2D", { "resizebilinear" } },
        { "StaticConstantPad", { "constantpad", "pad" } },
        { "AvgPooling2d", { "averagepooling" } },
        { "Minimum", { "minimum" } },
        { "DepthwiseConv2d", { "convolution" } },
        { "MaxPooling2d", { "maxpooling" } },
        { "Multiply", { "multiply" } },
        { "Subtract", { "subtract" } },
        { "Floor", { "floor" } },
        { "Convert", { "convert" } },
        { "GlobalAvgPooling2d", { "mean", "globalaveragepooling" } },
        { "StaticReshape", { "staticreshape", "reshape", "copy" } },
        { "ArgMaxPooling2d", { "argmaxpooling" } },
        { "SquareRoot", { "squareroot" } },
        { "Ceiling", { "ceiling" } },
        { "Hardswish", { "hardswish" } },
        { "LeakyReLU", { "leakyrelu" } },
        { "Maximum", { "maximum" } },
        { "Negate", { "negate" } },
        { "Square", { "square" } },
        { "ELU", { "elu" } },
        { "Abs", { "abs" } },
        { "PReLU", { "prelu" } },
        { "Concatenate2", { "copy", "concatenate" } },
        { "Concatenate3", { "copy", "concatenate" } },
        { "Concatenate4", { "copy", "concatenate" } },
        { "Concatenate5", { "copy", "concatenate" } },
        { "StaticSlice", { "slice", "staticslice" } },
        { "ScaledDotProductAttention", { "scaleddotproductattention" } },
        { "BatchMatrixMultiply", { "batchmatrixmultiply" } },
        { "ConvTranspose2d", { "deconvolution" } },
        { "ReciprocalSquareRoot", { "reciprocalsquareroot" } },
        { "Log", { "log" } },
        { "Gelu", { "gelu" } },
        { "Tanh", { "tanh" } },
        { "Exp", { "exp" } },
        { "Sin", { "sine", "sin" } },
        { "Copy", { "copy", "staticreshape" } },
        { "Cos", { "cosine", "cos" } },
    };
    return table;
}

/** Kinds XNNPACK's optimizer may fuse away, leaving no runtime operator (and no event). */
bool fusable(std::string_view kind)
{
    return kind == "Clamp" || kind == "Copy" || kind == "StaticReshape" || kind == "StaticConstantPad"
        || kind == "Convert";
}

std::string paramOf(const InnerNode& n, std::string_view name)
{
    for (const auto& p : n.params)
        if (p.name == name)
            return p.value;
    return {};
}

struct Expected
{
    std::int32_t node = kRuntimeInsertedNode;
    std::string kind;
    const InnerNode* inner = nullptr;
    /** A second operator XNNPACK builds for `node` (a clamp it cannot fuse): optional, like fusable nodes. */
    bool split = false;
};

/** Elementwise kinds whose runtime operator takes no output range: a non-default output_min_max becomes a clamp. */
bool binaryElementwise(std::string_view kind)
{
    return kind == "Add" || kind == "Subtract" || kind == "Multiply" || kind == "Div" || kind == "Minimum"
        || kind == "Maximum";
}

/** Whether the node's output_min_max narrows the range (not absent, not (-inf, +inf)). */
bool clampsOutput(const InnerNode& n)
{
    const std::string mm = paramOf(n, "output_min_max");
    return !mm.empty() && mm != "(-inf, +inf)";
}

/** A Multiply of a value by itself: XNNPACK runs it as its Square operator. */
bool squares(const InnerNode& n)
{
    return n.kind == "Multiply" && n.inputs.size() == 2 && n.inputs[0].valueId == n.inputs[1].valueId;
}

bool compatible(const Expected& e, std::string_view family, std::string_view fullLabel)
{
    const auto& table = familiesByKind();
    const auto it = table.find(e.kind);
    if (it == table.end())
        return false;
    const bool dwLabel = fullLabel.ends_with(" DWConv");
    if (e.inner && e.kind == "Conv2d") {
        // XNNPACK runs 1x1 stride-1 convolutions as fully connected GEMMs.
        if (family == "fullyconnected")
            return paramOf(*e.inner, "kernel") == "1x1" && paramOf(*e.inner, "stride") == "1x1";
        if (dwLabel)
            return paramOf(*e.inner, "group_input_channels") == "1" && paramOf(*e.inner, "groups") != "1";
    }
    if (dwLabel && e.kind != "DepthwiseConv2d" && e.kind != "Conv2d")
        return false;
    if (family == "square" && e.kind == "Multiply")
        return e.inner && !e.split && squares(*e.inner);
    return std::find(it->second.begin(), it->second.end(), family) != it->second.end();
}

} // namespace

std::string xnnpackLabelFamily(std::string_view label)
{
    const auto [text, k] = splitCounter(label);
    (void)k;
    const auto paren = text.find(" (");
    return std::string(paren == std::string_view::npos ? text : text.substr(0, paren));
}

EventAlignment alignXnnpackEvents(const DelegatePayload& payload, std::span<const DelegateProfileEvent> events)
{
    EventAlignment a;
    a.eventNode.assign(events.size(), kUnplacedEvent);
    if (payload.kind != PayloadKind::XnnpackGraph || !payload.graphDecoded) {
        a.notes.push_back("the payload is not a decoded XNNPACK graph: time is attributed to the whole delegate call");
        return a;
    }

    // The runtime operator list the events should follow.
    std::vector<Expected> expected;
    for (const auto& v : payload.values)
        for (const auto& attr : v.attributes)
            if (attr.name == "dq_datatype")
                expected.push_back({ kRuntimeInsertedNode, "Convert", nullptr });
    for (const auto& n : payload.nodes) {
        expected.push_back({ std::int32_t(n.index), n.kind, &n });
        if (binaryElementwise(n.kind) && clampsOutput(n))
            expected.push_back({ std::int32_t(n.index), "Clamp", &n, true });
        if (n.kind == "FullyConnected" && !n.outputs.empty())
            if (const auto* out = payload.value(n.outputs.front().valueId); out && out->dtype == "bf16")
                expected.push_back({ kRuntimeInsertedNode, "Convert", nullptr });
    }

    bool failed = false;
    bool irregularCounters = false;
    std::map<std::string, std::int64_t, std::less<>> counters;
    std::size_t next = 0;
    for (std::size_t e = 0; e < events.size(); ++e) {
        const auto [text, k] = splitCounter(events[e].label);
        const std::string family = normalise(xnnpackLabelFamily(events[e].label));
        const std::int64_t want = ++counters[std::string(text)];
        if (k != want && !irregularCounters) {
            irregularCounters = true;
            a.notes.push_back("event " + std::to_string(e) + " '" + events[e].label + "' should be #"
                + std::to_string(want) + ": the events may mix several runs or delegate instances");
        }
        std::size_t at = next;
        std::vector<std::uint32_t> skipped;
        bool found = false;
        while (at < expected.size()) {
            if (compatible(expected[at], family, text)) {
                found = true;
                break;
            }
            if (!fusable(expected[at].kind) && expected[at].node != kRuntimeInsertedNode)
                break;
            if (expected[at].node >= 0 && !expected[at].split)
                skipped.push_back(std::uint32_t(expected[at].node));
            ++at;
        }
        if (!found) {
            failed = true;
            a.notes.push_back("event " + std::to_string(e) + " '" + events[e].label + "' matches no remaining node"
                + (next < expected.size()
                        ? " (next node " + std::to_string(expected[next].node) + ": " + expected[next].kind + ")"
                        : std::string(" (no node left)")));
            continue;
        }
        a.eventNode[e] = expected[at].node;
        a.skippedNodes.insert(a.skippedNodes.end(), skipped.begin(), skipped.end());
        next = at + 1;
    }
    for (; next < expected.size(); ++next) {
        if (expected[next].node < 0 || expected[next].split)
            continue;
        if (fusable(expected[next].kind)) {
            a.skippedNodes.push_back(std::uint32_t(expected[next].node));
        } else {
            a.unmatchedNodes.push_back(std::uint32_t(expected[next].node));
            failed = true;
        }
    }
    if (!a.unmatchedNodes.empty())
        a.notes.push_back(std::to_string(a.unmatchedNodes.size())
            + " node(s) that XNNPACK cannot fuse got no event, the first is node "
            + std::to_string(a.unmatchedNodes.front()));
    if (!a.skippedNodes.empty())
        a.notes.push_back(std::to_string(a.skippedNodes.size()) + " node(s) skipped as fused by XNNPACK");
    a.quality = failed                                   ? AlignmentQuality::Failed
        : (!a.skippedNodes.empty() || irregularCounters) ? AlignmentQuality::Approximate
                                                         : AlignmentQuality::Exact;
    return a;
}

} // namespace pte
