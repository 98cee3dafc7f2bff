// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Benchmark "emit-lowering": emission of a decomposition-heavy training-IR graph. 2,000 blocks (--quick: 20), each a
// causal scaled_dot_product_attention over [1, 4, 16, 16] followed by a one-layer LSTM (lstm.input, 4 steps, hidden
// 16, with biases) over the same values viewed as [4, 16, 16]; every block's composites are decomposed
// (docs/lowering.md) into about 70 kernel instructions. Measured: the process's first emission and the median of three
// more, with the instruction count. No target of its own: the issue asks for its time to be stated (README).
#include "bench.h"
#include "pte/emitter.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

namespace pte::bench {

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

pte::TensorMeta meta(const std::vector<std::int64_t>& shape)
{
    pte::TensorMeta m;
    m.dtype = pte::ScalarType::Float;
    std::int64_t stride = 1;
    m.sizes.resize(shape.size());
    m.strides.resize(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        m.sizes[d].value = shape[d];
        m.strides[d].value = stride;
        stride *= shape[d];
    }
    m.storageOffset.value = 0;
    return m;
}

pte::NamedArgument tensorArg(const char* name, const std::string& value)
{
    return { name, pte::Argument::tensor(value), 1 };
}

pte::NamedArgument listArg(const char* name, std::vector<std::string> values)
{
    pte::Argument a;
    a.kind = pte::ArgKind::Tensors;
    a.names = std::move(values);
    return { name, std::move(a), 1 };
}

pte::NamedArgument intsArg(const char* name, std::vector<std::int64_t> values)
{
    pte::Argument a;
    a.kind = pte::ArgKind::Ints;
    a.ints = std::move(values);
    return { name, std::move(a), 1 };
}

pte::NamedArgument scalarArg(const char* name, pte::ArgKind kind, double v, std::int32_t argKind = 1)
{
    pte::Argument a;
    a.kind = kind;
    if (kind == pte::ArgKind::Bool)
        a.bools = { v != 0 };
    else if (kind == pte::ArgKind::Int)
        a.ints = { std::int64_t(v) };
    else
        a.floats = { v };
    return { name, std::move(a), argKind };
}

/** The graph: x -> [sdpa(x, k, v, causal) -> view [4, 16, 16] -> lstm -> view [1, 4, 16, 16]] x blocks. */
std::shared_ptr<pte::ExportedProgram> attentionLstmChain(int blocks)
{
    auto ep = std::make_shared<pte::ExportedProgram>();
    auto& g = ep->graph;
    const std::vector<std::int64_t> heads { 1, 4, 16, 16 };
    const std::vector<std::int64_t> steps { 4, 16, 16 };
    auto input = [&](const std::string& name, const std::vector<std::int64_t>& shape) {
        g.inputs.push_back(pte::Argument::tensor(name));
        g.tensorValues[name] = meta(shape);
        pte::InputSpec s;
        s.arg = pte::Argument::tensor(name);
        ep->signature.inputSpecs.push_back(s);
    };
    input("x", heads);
    input("k", heads);
    input("v", heads);
    input("h0", { 1, 16, 16 });
    input("c0", { 1, 16, 16 });
    input("w_ih", { 64, 16 });
    input("w_hh", { 64, 16 });
    input("b_ih", { 64 });
    input("b_hh", { 64 });
    auto node = [&](const std::string& name, const char* target, std::vector<pte::NamedArgument> args,
                    const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& outs) {
        pte::Node n;
        n.name = name;
        n.setTarget(target);
        n.inputs = std::move(args);
        for (const auto& [out, shape] : outs) {
            n.outputs.push_back(pte::Argument::tensor(out));
            g.tensorValues[out] = meta(shape);
        }
        n.debugHandles = { std::int64_t(g.nodes.size()) + 1 };
        g.nodes.push_back(std::move(n));
    };
    std::string x = "x";
    for (int i = 0; i < blocks; ++i) {
        const std::string id = std::to_string(i);
        node("sdpa_" + id, "torch.ops.aten.scaled_dot_product_attention.default",
            { tensorArg("query", x), tensorArg("key", "k"), tensorArg("value", "v"),
                scalarArg("is_causal", pte::ArgKind::Bool, 1, 2) },
            { { "sdpa_" + id, heads } });
        node("seq_" + id, "torch.ops.aten.view.default", { tensorArg("self", "sdpa_" + id), intsArg("size", steps) },
            { { "seq_" + id, steps } });
        node("lstm_" + id, "torch.ops.aten.lstm.input",
            { tensorArg("input", "seq_" + id), listArg("hx", { "h0", "c0" }),
                listArg("params", { "w_ih", "w_hh", "b_ih", "b_hh" }), scalarArg("has_biases", pte::ArgKind::Bool, 1),
                scalarArg("num_layers", pte::ArgKind::Int, 1), scalarArg("dropout", pte::ArgKind::Float, 0),
                scalarArg("train", pte::ArgKind::Bool, 0), scalarArg("bidirectional", pte::ArgKind::Bool, 0),
                scalarArg("batch_first", pte::ArgKind::Bool, 0) },
            { { "lstm_" + id, steps }, { "lstm_h_" + id, { 1, 16, 16 } }, { "lstm_c_" + id, { 1, 16, 16 } } });
        node("out_" + id, "torch.ops.aten.view.default", { tensorArg("self", "lstm_" + id), intsArg("size", heads) },
            { { "out_" + id, heads } });
        x = "out_" + id;
    }
    g.outputs = { pte::Argument::tensor(x) };
    pte::OutputSpec os;
    os.arg = g.outputs[0];
    ep->signature.outputSpecs = { os };
    return ep;
}

std::vector<BenchMeasurement> runLoweringBench(const BenchContext& ctx)
{
    const int blocks = ctx.quick ? 20 : 2000;
    const auto ep = attentionLstmChain(blocks);
    std::vector<double> runs;
    std::vector<double> cpuRuns;
    std::size_t instructions = 0;
    for (int run = 0; run < 4; ++run) {
        const auto t0 = Clock::now();
        const std::clock_t c0 = std::clock();
        auto emitted = pte::emitProgram({ { "forward", ep } });
        runs.push_back(msSince(t0));
        cpuRuns.push_back(1000.0 * double(std::clock() - c0) / CLOCKS_PER_SEC);
        if (!emitted) {
            std::fprintf(stderr, "emit-lowering: %s\n", emitted.error().toString().c_str());
            return { { "emit_lowering.failed", 1, "", "0", false } };
        }
        instructions = 0;
        for (const auto& chain : emitted->program.executionPlan.at(0).chains)
            instructions += chain.instructions.size();
    }
    return {
        { "emit_lowering.blocks", double(blocks), "", "", true },
        { "emit_lowering.composite_nodes", double(2 * blocks), "", "", true },
        { "emit_lowering.instructions", double(instructions), "", "", true },
        { "emit_lowering.first_emission_ms", runs.front(), "ms", "", true },
        { "emit_lowering.first_emission_cpu_ms", cpuRuns.front(), "ms", "", true },
        { "emit_lowering.emission_ms", median(std::vector<double>(runs.begin() + 1, runs.end())), "ms", "", true },
    };
}

} // namespace

PTELENS_REGISTER_BENCHMARK(emit_lowering, "emit-lowering",
    "Emit a training-IR graph of 2,000 attention + LSTM blocks (4,000 composite nodes decomposed)", runLoweringBench);

} // namespace pte::bench
