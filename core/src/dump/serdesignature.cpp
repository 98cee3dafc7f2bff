// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The exported-program decoder's graph signatures: input and output specs, and torch 2.1's dict-style signatures.
#include "dump/exportedprogramdecoder.h"

namespace pte::dump {

Result<GraphSignature> ExportedProgramDecoder::signature(const json& j, const std::string& path, const Graph& g)
{
    GraphSignature sig;
    if (!j.is_object())
        return bad(path, "expected a GraphSignature object, found " + describe(j));
    if (!j.contains("input_specs") && (j.contains("inputs_to_parameters") || j.contains("user_inputs")))
        return legacySignature(j, path, g);
    const json& ins = field(j, "input_specs");
    for (std::size_t i = 0; ins.is_array() && i < ins.size(); ++i) {
        const std::string ip = indexPath(joinPath(path, "input_specs"), i);
        PTE_TRY(const auto alt, unionAlt(ins[i], ip));
        const json& v = *alt.second;
        const std::string p = joinPath(ip, alt.first);
        InputSpec s;
        auto target = [&](const char* key) -> Result<void> {
            PTE_TRY(s.target, toString(field(v, key), joinPath(p, key)));
            return {};
        };
        if (alt.first == "user_input") {
            s.kind = InputKind::UserInput;
            PTE_TRY(s.arg, argument(field(v, "arg"), joinPath(p, "arg"), 0));
        } else if (alt.first == "parameter") {
            s.kind = InputKind::Parameter;
            PTE_TRY(s.arg, tensorArg(field(v, "arg"), joinPath(p, "arg")));
            PTE_CHECK(target("parameter_name"));
        } else if (alt.first == "buffer") {
            s.kind = InputKind::Buffer;
            PTE_TRY(s.arg, tensorArg(field(v, "arg"), joinPath(p, "arg")));
            PTE_CHECK(target("buffer_name"));
            if (field(v, "persistent").is_boolean())
                s.persistent = v["persistent"].get<bool>();
        } else if (alt.first == "tensor_constant") {
            s.kind = InputKind::TensorConstant;
            PTE_TRY(s.arg, tensorArg(field(v, "arg"), joinPath(p, "arg")));
            PTE_CHECK(target("tensor_constant_name"));
        } else if (alt.first == "custom_obj") {
            s.kind = InputKind::CustomObj;
            s.arg.kind = ArgKind::CustomObj;
            PTE_TRY(auto n, toString(field(field(v, "arg"), "name"), joinPath(p, "arg.name")));
            s.arg.names.push_back(std::move(n));
            const json& fqn = field(field(v, "arg"), "class_fqn");
            s.arg.strings.push_back(fqn.is_string() ? fqn.get<std::string>() : std::string());
            PTE_CHECK(target("custom_obj_name"));
        } else if (alt.first == "token") {
            s.kind = InputKind::Token;
            PTE_TRY(s.arg, tensorArg(field(v, "arg"), joinPath(p, "arg")));
        } else if (alt.first == "constant_input") {
            s.kind = InputKind::ConstantInput;
            PTE_CHECK(target("name"));
            PTE_TRY(s.constantValue, argument(field(v, "value"), joinPath(p, "value"), 0));
        } else {
            return bad(ip, "unknown input spec kind '" + alt.first + "'");
        }
        sig.inputSpecs.push_back(std::move(s));
    }
    const json& outs = field(j, "output_specs");
    for (std::size_t i = 0; outs.is_array() && i < outs.size(); ++i) {
        const std::string op = indexPath(joinPath(path, "output_specs"), i);
        PTE_TRY(const auto alt, unionAlt(outs[i], op));
        const json& v = *alt.second;
        const std::string p = joinPath(op, alt.first);
        OutputSpec s;
        const char* targetKey = nullptr;
        if (alt.first == "user_output") {
            s.kind = OutputKind::UserOutput;
            PTE_TRY(s.arg, argument(field(v, "arg"), joinPath(p, "arg"), 0));
        } else {
            if (alt.first == "loss_output") {
                s.kind = OutputKind::LossOutput;
            } else if (alt.first == "buffer_mutation") {
                s.kind = OutputKind::BufferMutation;
                targetKey = "buffer_name";
            } else if (alt.first == "gradient_to_parameter") {
                s.kind = OutputKind::GradientToParameter;
                targetKey = "parameter_name";
            } else if (alt.first == "gradient_to_user_input") {
                s.kind = OutputKind::GradientToUserInput;
                targetKey = "user_input_name";
            } else if (alt.first == "user_input_mutation") {
                s.kind = OutputKind::UserInputMutation;
                targetKey = "user_input_name";
            } else if (alt.first == "token") {
                s.kind = OutputKind::Token;
            } else if (alt.first == "parameter_mutation") {
                s.kind = OutputKind::ParameterMutation;
                targetKey = "parameter_name";
            } else {
                return bad(op, "unknown output spec kind '" + alt.first + "'");
            }
            PTE_TRY(s.arg, tensorArg(field(v, "arg"), joinPath(p, "arg")));
            if (targetKey) {
                PTE_TRY(s.target, toString(field(v, targetKey), joinPath(p, targetKey)));
            }
        }
        sig.outputSpecs.push_back(std::move(s));
    }
    return sig;
}

Result<GraphSignature> ExportedProgramDecoder::legacySignature(const json& j, const std::string& path, const Graph& g)
{
    warn(path, "torch 2.1 dict-style graph signature: converted for display", Severity::Info);
    GraphSignature sig;
    auto lookup = [&](const char* key, const std::string& name) -> std::optional<std::string> {
        const json& m = field(j, key);
        const json& v = field(m, name.c_str());
        if (v.is_string())
            return v.get<std::string>();
        return std::nullopt;
    };
    for (const auto& in : g.inputs) {
        InputSpec s;
        s.arg = in;
        const std::string name = in.names.empty() ? std::string() : in.names.front();
        if (auto p = lookup("inputs_to_parameters", name)) {
            s.kind = InputKind::Parameter;
            s.target = *p;
        } else if (auto b = lookup("inputs_to_buffers", name)) {
            s.kind = InputKind::Buffer;
            s.target = *b;
        }
        sig.inputSpecs.push_back(std::move(s));
    }
    const json& bw = field(j, "backward_signature");
    for (const auto& out : g.outputs) {
        OutputSpec s;
        s.arg = out;
        const std::string name = out.names.empty() ? std::string() : out.names.front();
        if (auto b = lookup("buffers_to_mutate", name)) {
            s.kind = OutputKind::BufferMutation;
            s.target = *b;
        } else if (field(field(bw, "gradients_to_parameters"), name.c_str()).is_string()) {
            s.kind = OutputKind::GradientToParameter;
            s.target = bw["gradients_to_parameters"][name].get<std::string>();
        } else if (field(field(bw, "gradients_to_user_inputs"), name.c_str()).is_string()) {
            s.kind = OutputKind::GradientToUserInput;
            s.target = bw["gradients_to_user_inputs"][name].get<std::string>();
        } else if (field(bw, "loss_output").is_string() && bw["loss_output"].get<std::string>() == name) {
            s.kind = OutputKind::LossOutput;
        }
        sig.outputSpecs.push_back(std::move(s));
    }
    return sig;
}

} // namespace pte::dump
