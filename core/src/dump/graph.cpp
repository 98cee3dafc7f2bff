// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/graph.h"

#include "pte/elementvalue.h"
#include "pte/tensorshape.h"

#include <charconv>

namespace pte {

std::optional<std::vector<double>> tensorElements(const WeightTensor& t, std::size_t maxElements)
{
    const auto& m = t.meta;
    const std::size_t es = elementSize(m.dtype);
    if (es == 0)
        return std::nullopt;
    std::vector<std::int64_t> sizes;
    std::vector<std::int64_t> strides;
    std::uint64_t numel = 1;
    for (std::size_t d = 0; d < m.sizes.size(); ++d) {
        if (!m.sizes[d].value || *m.sizes[d].value < 0)
            return std::nullopt;
        sizes.push_back(*m.sizes[d].value);
        numel *= static_cast<std::uint64_t>(sizes.back());
        if (numel > maxElements)
            return std::nullopt;
    }
    if (m.strides.size() == sizes.size()) {
        for (const auto& s : m.strides) {
            if (!s.value || *s.value < 0)
                return std::nullopt;
            strides.push_back(*s.value);
        }
    } else {
        strides = contiguousStrides(sizes);
    }
    std::vector<double> out;
    out.reserve(static_cast<std::size_t>(numel));
    std::vector<std::int64_t> idx(sizes.size(), 0);
    for (std::uint64_t e = 0; e < numel; ++e) {
        std::uint64_t off = 0;
        for (std::size_t d = 0; d < idx.size(); ++d)
            off += static_cast<std::uint64_t>(idx[d] * strides[d]);
        if ((off + 1) * es > t.data.size())
            return std::nullopt;
        const auto v = elementValue(m.dtype, t.data.data() + off * es, ElementReading::Meaning);
        if (!v)
            return std::nullopt;
        out.push_back(*v);
        for (std::size_t d = idx.size(); d-- > 0;) {
            if (++idx[d] < sizes[d])
                break;
            idx[d] = 0;
        }
    }
    return out;
}

std::optional<std::int64_t> firstDebugHandle(const Node& n)
{
    if (!n.debugHandles.empty())
        return n.debugHandles[0];
    const auto it = n.metadata.find("debug_handle");
    if (it == n.metadata.end())
        return std::nullopt;
    std::int64_t v = 0;
    const auto& s = it->second;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc())
        return std::nullopt;
    return v;
}

Result<std::vector<double>> tensorValues(ScalarType dtype, const std::vector<std::int64_t>& sizes,
    const std::vector<std::int64_t>& strides, Bytes data, std::size_t maxElements, const std::string& what)
{
    WeightTensor t;
    t.meta.dtype = dtype;
    for (const auto s : sizes)
        t.meta.sizes.push_back(SymInt { s, {}, {} });
    for (const auto s : strides)
        t.meta.strides.push_back(SymInt { s, {}, {} });
    t.data = std::move(data);
    auto values = tensorElements(t, maxElements);
    if (!values)
        return fail(ErrorCode::Unsupported,
            what + " (" + scalarTypeShortName(dtype) + ") cannot be read as numbers: more than "
                + std::to_string(maxElements)
                + " elements, a dtype without a plain numeric reading, negative strides, "
                  "or fewer bytes than its strides need");
    return std::move(*values);
}

const char* argKindName(ArgKind k) noexcept
{
    switch (k) {
    case ArgKind::None:
        return "as_none";
    case ArgKind::Tensor:
        return "as_tensor";
    case ArgKind::Tensors:
        return "as_tensors";
    case ArgKind::Int:
        return "as_int";
    case ArgKind::Ints:
        return "as_ints";
    case ArgKind::Float:
        return "as_float";
    case ArgKind::Floats:
        return "as_floats";
    case ArgKind::String:
        return "as_string";
    case ArgKind::Strings:
        return "as_strings";
    case ArgKind::Bool:
        return "as_bool";
    case ArgKind::Bools:
        return "as_bools";
    case ArgKind::SymInt:
        return "as_sym_int";
    case ArgKind::SymInts:
        return "as_sym_ints";
    case ArgKind::SymBool:
        return "as_sym_bool";
    case ArgKind::SymBools:
        return "as_sym_bools";
    case ArgKind::SymFloat:
        return "as_sym_float";
    case ArgKind::SymFloats:
        return "as_sym_floats";
    case ArgKind::ScalarType:
        return "as_scalar_type";
    case ArgKind::MemoryFormat:
        return "as_memory_format";
    case ArgKind::Layout:
        return "as_layout";
    case ArgKind::Device:
        return "as_device";
    case ArgKind::OptionalTensor:
        return "as_optional_tensor";
    case ArgKind::OptionalTensors:
        return "as_optional_tensors";
    case ArgKind::Graph:
        return "as_graph";
    case ArgKind::CustomObj:
        return "as_custom_obj";
    case ArgKind::Operator:
        return "as_operator";
    case ArgKind::Complex:
        return "as_complex";
    case ArgKind::IntLists:
        return "as_int_lists";
    case ArgKind::FloatLists:
        return "as_float_lists";
    case ArgKind::NestedTensors:
        return "as_nested_tensors";
    case ArgKind::StringToArgument:
        return "as_string_to_argument";
    }
    return "?";
}

const char* inputKindName(InputKind k) noexcept
{
    switch (k) {
    case InputKind::UserInput:
        return "user_input";
    case InputKind::Parameter:
        return "parameter";
    case InputKind::Buffer:
        return "buffer";
    case InputKind::TensorConstant:
        return "tensor_constant";
    case InputKind::CustomObj:
        return "custom_obj";
    case InputKind::Token:
        return "token";
    case InputKind::ConstantInput:
        return "constant_input";
    }
    return "?";
}

const char* outputKindName(OutputKind k) noexcept
{
    switch (k) {
    case OutputKind::UserOutput:
        return "user_output";
    case OutputKind::LossOutput:
        return "loss_output";
    case OutputKind::BufferMutation:
        return "buffer_mutation";
    case OutputKind::GradientToParameter:
        return "gradient_to_parameter";
    case OutputKind::GradientToUserInput:
        return "gradient_to_user_input";
    case OutputKind::UserInputMutation:
        return "user_input_mutation";
    case OutputKind::Token:
        return "token";
    case OutputKind::ParameterMutation:
        return "parameter_mutation";
    }
    return "?";
}

Argument Argument::tensor(std::string name)
{
    Argument a;
    a.kind = ArgKind::Tensor;
    a.names.push_back(std::move(name));
    return a;
}

void Node::setTarget(std::string t)
{
    target = std::move(t);
    ns.clear();
    op.clear();
    overload.clear();
    auto splitOp = [this](std::string_view rest) {
        const auto d1 = rest.find('.');
        ns = std::string(rest.substr(0, d1));
        if (d1 == std::string_view::npos)
            return;
        rest.remove_prefix(d1 + 1);
        const auto d2 = rest.find('.');
        op = std::string(rest.substr(0, d2));
        if (d2 != std::string_view::npos)
            overload = std::string(rest.substr(d2 + 1));
    };
    static constexpr std::string_view kHop = "torch.ops.higher_order.";
    static constexpr std::string_view kOps = "torch.ops.";
    static constexpr std::string_view kEdge = "executorch.exir.dialects.edge.ops.";
    static constexpr std::string_view kBackend = "executorch.exir.dialects.backend.ops.";
    const std::string_view sv(target);
    if (sv.starts_with(kHop)) {
        targetKind = TargetKind::HigherOrder;
        ns = "higher_order";
        op = std::string(sv.substr(kHop.size()));
    } else if (sv.starts_with(kOps)) {
        targetKind = TargetKind::OpOverload;
        splitOp(sv.substr(kOps.size()));
    } else if (sv.starts_with(kEdge)) {
        targetKind = TargetKind::OpOverload;
        splitOp(sv.substr(kEdge.size()));
    } else if (sv.starts_with(kBackend)) {
        targetKind = TargetKind::OpOverload;
        splitOp(sv.substr(kBackend.size()));
    } else if (sv == "memory.alloc" || sv == "executorch.exir.memory.alloc") {
        targetKind = TargetKind::MemoryAlloc;
    } else if (sv == "executorch.exir.memory.view" || sv == "memory.view") {
        targetKind = TargetKind::MemoryView;
    } else if (sv.starts_with("_operator.") || sv.starts_with("math.") || sv.starts_with("torch.sym_")
        || sv.starts_with("builtins.")) {
        targetKind = TargetKind::SymOp;
    } else {
        targetKind = TargetKind::Other;
    }
}

std::string Node::qualifiedOp() const
{
    // The readers split OpOverload targets (torch.ops.<ns>.<op>.<overload> and the edge/backend dialect
    // paths) into ns/op/overload; everything else keeps its raw target.
    if (targetKind != TargetKind::OpOverload || op.empty())
        return target;
    std::string s = ns + "::" + op;
    if (!overload.empty())
        s += "." + overload;
    return s;
}

const NamedArgument* Node::input(std::string_view argName) const noexcept
{
    for (const auto& a : inputs)
        if (a.name == argName)
            return &a;
    return nullptr;
}

} // namespace pte
