// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/graph.h"

namespace pte {

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
