// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// In-place ops of the training IR, lowered as torch.export's run_decompositions functionalizes them: `relu_(x)`
// becomes `relu(x)` and every later use of x (and of the tensors x is a view of) reads the new value; a mutated
// view is scattered back into its base (slice_scatter, select_scatter, an inverse permute or view); a placeholder
// mutated this way (a KV cache, a counter) becomes a mutable buffer written back at the end of the method (copy_),
// as ExecuTorch's write-back pass does for buffer mutations. docs/lowering.md describes it.
#include "emit/lowering_p.h"
#include "emit/opbuilder.h"
#include "pte/operatorname.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <unordered_set>

namespace pte::emitcore {

namespace {

/** The aten ops whose result is a view of their first input (torch's alias annotations), as training-IR graphs
 *  contain them. */
bool isViewOp(std::string_view op)
{
    static const std::unordered_set<std::string_view> kViews = { "view", "_unsafe_view", "reshape", "permute",
        "transpose", "t", "unsqueeze", "squeeze", "expand", "alias", "detach", "slice", "select", "narrow", "split",
        "split_with_sizes", "chunk", "unbind", "unflatten", "flatten", "view_as", "reshape_as", "expand_as", "movedim",
        "tensor_split", "as_strided", "diagonal" };
    return kViews.count(op) > 0;
}

/** An aten op name of an in-place form (relu_, add_, index_put_...). */
bool isInPlaceName(std::string_view op) { return op.size() > 1 && op.back() == '_' && !op.starts_with("__"); }

const std::string* firstTensorInput(const Node& n)
{
    if (n.inputs.empty())
        return nullptr;
    const auto& a = n.inputs[0].arg;
    if ((a.kind != ArgKind::Tensor && a.kind != ArgKind::OptionalTensor) || a.names.empty() || a.names[0].empty())
        return nullptr;
    return &a.names[0];
}

bool isAtenOp(const Node& n) { return n.targetKind == TargetKind::OpOverload && n.ns == "aten"; }

} // namespace

void Lowering::scanMutations()
{
    const auto& nodes = m_ep.graph.nodes;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const Node& n = nodes[i];
        for (const auto& in : n.inputs)
            for (const auto& nm : in.arg.names)
                if (!nm.empty())
                    m_lastUse[nm] = i;
        if (!isAtenOp(n))
            continue;
        if (isViewOp(n.op) && firstTensorInput(n)) {
            std::size_t k = 0;
            for (const auto& o : n.outputs)
                for (const auto& nm : o.names)
                    m_viewOf[nm] = ViewStep { &n, k++ };
        }
        if (isInPlaceName(n.op)) {
            const std::string* self = firstTensorInput(n);
            if (!self)
                continue;
            std::string root = *self;
            for (auto it = m_viewOf.find(root); it != m_viewOf.end(); it = m_viewOf.find(root))
                root = *firstTensorInput(*it->second.node);
            m_inPlaceRoots.insert(root);
        }
    }
    for (const auto& o : m_ep.graph.outputs)
        for (const auto& nm : o.names)
            m_lastUse[nm] = nodes.size();
}

bool Lowering::isInPlace(const TargetName& t) const
{
    if (t.ns != "aten" || !isInPlaceName(t.op))
        return false;
    const std::string base = t.op.substr(0, t.op.size() - 1);
    return base == "zero" || !m_reg.overloads("aten::" + base).empty() || decomposes(base);
}

Result<void> Lowering::lowerInPlace(const TargetName& t, const Node& n)
{
    const std::string* selfName = firstTensorInput(n);
    if (!selfName)
        return fail(nodeError(n, ErrorCode::InvalidInput, "an in-place op without a tensor to update"));
    PTE_TRY(const int self, lookup(*selfName, where(n)));
    const std::string base = t.op.substr(0, t.op.size() - 1);
    // copy_ and index_put_ have in-place kernels: on a planned tensor that is no view they run as they are.
    const bool hasInPlaceKernel = base == "copy" || base == "index_put";
    const LValue& sv = m_out.values[std::size_t(self)];
    if (hasInPlaceKernel && !m_viewOf.count(*selfName) && sv.storage == LValue::Storage::Planned && sv.aliasOf < 0) {
        const OpSchema* s = m_reg.find("aten::" + t.op, t.overload);
        if (s) {
            PTE_CHECK(emitFunctionalAsIs(*s, n));
            for (const auto& o : n.outputs)
                for (const auto& nm : o.names)
                    define(nm, self);
            return {};
        }
    }
    // The functional form, computed into the node's outputs.
    auto functional = std::make_shared<Node>(n);
    if (base == "zero") {
        functional->setTarget("torch.ops.aten.fill.Scalar");
        NamedArgument value;
        value.name = "value";
        value.arg.kind = ArgKind::Int;
        value.arg.ints = { 0 };
        functional->inputs.resize(1);
        functional->inputs.push_back(std::move(value));
    } else {
        functional->setTarget("torch.ops.aten." + base + "." + (t.overload.empty() ? "default" : t.overload));
    }
    m_out.madeNodes.push_back(functional);
    PTE_CHECK(lowerNode(*functional));
    std::string outName;
    for (const auto& o : n.outputs)
        if (!o.names.empty() && !o.names[0].empty()) {
            outName = o.names[0];
            break;
        }
    int result = self;
    if (!outName.empty()) {
        PTE_TRY(result, lookup(outName, where(n)));
    } else {
        return fail(nodeError(n, ErrorCode::InvalidInput, "an in-place op without an output"));
    }
    OpBuilder b(*this, n);
    // The updated tensor keeps its dtype and shape (torch refuses an in-place op that would change them).
    if (m_out.values[std::size_t(result)].dtype != m_out.values[std::size_t(self)].dtype)
        result = b.cast(result, m_out.values[std::size_t(self)].dtype);
    PTE_CHECK(b.status());
    if (m_out.values[std::size_t(result)].sizes.size() != m_out.values[std::size_t(self)].sizes.size())
        return fail(nodeError(n, ErrorCode::InvalidInput,
            "the in-place result has another rank than the tensor it updates (torch refuses such an update)"));
    for (const auto& o : n.outputs)
        for (const auto& nm : o.names)
            define(nm, result);
    return assignMutated(*selfName, result, n);
}

Result<void> Lowering::assignMutated(const std::string& name, int value, const Node& at)
{
    // The tensor, then each base it is a view of, takes its new value.
    std::vector<std::string> chain { name };
    std::string cur = name;
    int v = value;
    define(cur, v);
    OpBuilder b(*this, at);
    for (auto it = m_viewOf.find(cur); it != m_viewOf.end(); it = m_viewOf.find(cur)) {
        const Node& view = *it->second.node;
        const std::string& baseName = *firstTensorInput(view);
        PTE_TRY(const int baseVal, lookup(baseName, where(at)));
        PTE_TRY(v, scatterIntoBase(b, baseVal, v, view, it->second.index));
        cur = baseName;
        define(cur, v);
        chain.push_back(cur);
    }
    PTE_CHECK(b.status());
    // Views of the same root made before this update and read after it are made again from the new value.
    const std::string& root = chain.back();
    std::set<std::string> refresh;
    for (const auto& [viewName, step] : m_viewOf) {
        if (std::find(chain.begin(), chain.end(), viewName) != chain.end())
            continue;
        const auto last = m_lastUse.find(viewName);
        if (last == m_lastUse.end() || last->second <= m_nodeIndex)
            continue;
        // Made before this node? (a view made later is computed from the new value anyway)
        if (step.node < m_ep.graph.nodes.data() || step.node >= m_ep.graph.nodes.data() + m_nodeIndex)
            continue;
        std::string r = viewName;
        std::vector<std::string> path;
        for (auto s = m_viewOf.find(r); s != m_viewOf.end(); s = m_viewOf.find(r)) {
            path.push_back(r);
            r = *firstTensorInput(*s->second.node);
        }
        if (r != root)
            continue;
        for (const auto& p : path)
            if (std::find(chain.begin(), chain.end(), p) == chain.end())
                refresh.insert(p);
    }
    if (refresh.empty())
        return {};
    // Re-lowered in graph order, so that a view of a view follows its base.
    std::vector<const Node*> nodes;
    for (const auto& nm : refresh)
        nodes.push_back(m_viewOf.at(nm).node);
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    for (const Node* n : nodes)
        PTE_CHECK(lowerNode(*n));
    return {};
}

Result<int> Lowering::scatterIntoBase(OpBuilder& b, int base, int src, const Node& view, std::size_t index)
{
    const std::string& op = view.op;
    const OpSchema* s = m_reg.find("aten::" + op, isDefaultOverload(view.overload) ? "" : view.overload);
    ArgMap a;
    if (s) {
        PTE_TRY(a, bindArgs(*s, view));
    }
    auto integer = [&](std::string_view name, std::int64_t fallback) {
        const auto it = a.find(name);
        return it != a.end() && it->second.kind == LArg::Kind::Int ? it->second.i : fallback;
    };
    auto size = [&](std::string_view name, IntElem fallback) {
        const auto it = a.find(name);
        if (it == a.end() || it->second.kind == LArg::Kind::Null)
            return fallback;
        if (it->second.kind == LArg::Kind::ValueRef)
            return IntElem { 0, it->second.ref };
        return IntElem { it->second.i, -1 };
    };
    const auto rank = std::int64_t(m_out.values[std::size_t(base)].sizes.size());
    if (op == "alias" || op == "detach")
        return src;
    if (op == "view" || op == "_unsafe_view" || op == "reshape" || op == "unsqueeze" || op == "squeeze"
        || op == "unflatten" || op == "flatten" || op == "view_as" || op == "reshape_as")
        return b.view(src, b.dims(base));
    if (op == "permute" || op == "movedim") {
        const auto it = a.find("dims");
        if (op == "permute" && it != a.end()) {
            std::vector<std::int64_t> inverse(std::size_t(rank), 0);
            for (std::size_t k = 0; k < it->second.ints.size() && k < inverse.size(); ++k) {
                auto d = it->second.ints[k].literal;
                if (d < 0)
                    d += rank;
                inverse[std::size_t(d)] = std::int64_t(k);
            }
            return b.permute(src, inverse);
        }
    }
    if (op == "transpose")
        return b.transpose(src, integer("dim0", 0), integer("dim1", 1));
    if (op == "t")
        return b.transpose(src, 0, rank > 1 ? 1 : 0);
    if (op == "slice")
        return b.sliceScatter(base, src, integer("dim", 0), size("start", IntElem { 0, -1 }),
            size("end", IntElem { std::numeric_limits<std::int64_t>::max(), -1 }), integer("step", 1));
    if (op == "select")
        return b.selectScatter(base, src, integer("dim", 0), size("index", IntElem { 0, -1 }));
    if (op == "narrow") {
        const auto start = size("start", IntElem { 0, -1 });
        return b.sliceScatter(
            base, src, integer("dim", 0), start, b.addInt(start, size("length", IntElem { 0, -1 })), 1);
    }
    if (op == "unbind")
        return b.selectScatter(base, src, integer("dim", 0), IntElem { std::int64_t(index), -1 });
    if (op == "split" || op == "split_with_sizes" || op == "chunk") {
        // The element's offset along dim: the sizes of the elements before it.
        auto d = integer("dim", 0);
        if (d < 0)
            d += rank;
        const auto len = std::int64_t(m_out.values[std::size_t(base)].sizes[std::size_t(d)]);
        std::vector<std::int64_t> pieces;
        if (op == "split_with_sizes") {
            const auto it = a.find("split_sizes");
            if (it != a.end())
                for (const auto& e : it->second.ints)
                    pieces.push_back(e.literal);
        } else {
            const auto step = op == "split"
                ? integer("split_size", len)
                : (len + integer("chunks", 1) - 1) / std::max<std::int64_t>(integer("chunks", 1), 1);
            for (std::int64_t off = 0; off < len && step > 0; off += step)
                pieces.push_back(std::min(step, len - off));
        }
        if (index < pieces.size()) {
            const auto start = std::accumulate(pieces.begin(), pieces.begin() + std::ptrdiff_t(index), std::int64_t(0));
            return b.sliceScatter(base, src, d, IntElem { start, -1 }, IntElem { start + pieces[index], -1 }, 1);
        }
    }
    return fail(nodeError(view, ErrorCode::Unsupported,
        "an in-place update through this " + op
            + " view (only slice, select, narrow, split, chunk, unbind, view, "
              "reshape, squeeze, unsqueeze, permute and transpose views are written back to their base)"));
}

Result<void> Lowering::writeBackInPlaceMutations()
{
    // Placeholders updated by in-place ops that the signature does not list as mutations: the final value is copied
    // into the placeholder's storage at the end of the method (ExecuTorch's write-back), and the new value of a user
    // input likewise.
    std::set<std::string> listed;
    for (std::size_t i = 0; i < m_ep.signature.outputSpecs.size(); ++i) {
        const auto& os = m_ep.signature.outputSpecs[i];
        if (os.kind == OutputKind::BufferMutation || os.kind == OutputKind::UserInputMutation
            || os.kind == OutputKind::ParameterMutation)
            listed.insert(os.target);
    }
    for (std::size_t i = 0; i < m_ep.signature.inputSpecs.size() && i < m_ep.graph.inputs.size(); ++i) {
        const auto& arg = m_ep.graph.inputs[i];
        if (arg.names.empty() || !m_inPlaceRoots.count(arg.names[0]))
            continue;
        const auto& spec = m_ep.signature.inputSpecs[i];
        if (listed.count(spec.kind == InputKind::UserInput ? arg.names[0] : spec.target))
            continue;
        const auto ph = m_placeholderRef.find(arg.names[0]);
        if (ph == m_placeholderRef.end())
            continue;
        PTE_TRY(const int now, lookup(arg.names[0], "input " + std::to_string(i)));
        if (now == ph->second)
            continue; // updated in place
        LInstr in;
        in.kind = LInstr::Kind::Kernel;
        in.schema = m_reg.find("aten::copy_", "");
        if (!in.schema)
            in.name = LInstr::OperatorName { "aten::copy_", "" };
        in.args = { LArg::tensor(ph->second), LArg::tensor(now), LArg::boolean(false) };
        in.retSlots = { LArg::tensor(ph->second) };
        in.origin = arg.names[0];
        in.recordDebug = false;
        m_out.instrs.push_back(std::move(in));
    }
    return {};
}

} // namespace pte::emitcore
