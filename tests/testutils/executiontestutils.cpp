// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "executiontestutils.h"

#include "pte/delegatecall.h"
#include "pte/emittedoutput.h"
#include "pte/ptewriter.h"
#include "pte/tensorshape.h"
#include "testutils.h"

#include <algorithm>
#include <cmath>

namespace pte::test {

Result<Emitted> emitAndReload(
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& methods, const std::string& name,
    const EmitOptions& options)
{
    PTE_TRY(auto out, emitProgram(methods, options));
    PTE_TRY(auto laid, layoutEmitted(out.program, out));
    const std::string path = (tempDir() + "/" + QString::fromStdString(name) + ".pte").toStdString();
    PTE_CHECK(writePte(laid, path, options.serialize.write));
    PTE_TRY(auto file, readPteFile(path));
    for (const auto& d : file->diagnostics)
        if (d.severity == Severity::Error)
            return fail(ErrorCode::InvalidInput, "runtime check failed: " + d.toString());
    return Emitted { std::move(out), std::move(file) };
}

ReferenceInterpreter::DelegateHandler originalModuleDelegates(std::shared_ptr<const ExportedProgram> program)
{
    // Each delegate's original program, emitted once and kept with the interpreter that runs it.
    struct Delegate
    {
        std::shared_ptr<const LoweredModule> lowered;
        std::unique_ptr<Program> emitted;
        std::unique_ptr<ReferenceInterpreter> interpreter;
    };
    auto delegates = std::make_shared<std::vector<Delegate>>();
    for (const Node& node : program->graph.nodes)
        if (auto lowered = loweredModuleFor(*program, node))
            delegates->push_back({ std::move(lowered), nullptr, nullptr });
    return [delegates](std::size_t index, const std::vector<HostTensor>& args) -> Result<std::vector<HostTensor>> {
        if (index >= delegates->size())
            return fail(ErrorCode::InvalidInput,
                "the dump has " + std::to_string(delegates->size()) + " delegate calls, not "
                    + std::to_string(index + 1));
        Delegate& d = (*delegates)[index];
        if (!d.lowered->originalModule)
            return fail(ErrorCode::Unsupported, d.lowered->name + " has no original program");
        if (!d.interpreter) {
            EmitOptions options;
            options.zeroFillMissingWeights = true;
            PTE_TRY(auto out, emitProgram({ { "forward", d.lowered->originalModule } }, options));
            PTE_TRY(auto laid, layoutEmitted(std::move(out.program), out));
            d.emitted = std::make_unique<Program>(std::move(laid));
            PTE_TRY(d.interpreter, ReferenceInterpreter::load(*d.emitted, "forward"));
        }
        const std::size_t inputs = d.emitted->executionPlan.at(0).inputs.size();
        if (args.size() < inputs)
            return fail(ErrorCode::InvalidInput,
                d.lowered->name + " takes " + std::to_string(inputs) + " inputs, the call has "
                    + std::to_string(args.size()) + " arguments");
        return d.interpreter->run(std::vector<HostTensor>(args.begin(), args.begin() + std::ptrdiff_t(inputs)));
    };
}

bool nearlyEqual(const std::vector<double>& a, const std::vector<double>& b, double tol)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::isnan(a[i]) && std::isnan(b[i]))
            continue;
        if (!(std::fabs(a[i] - b[i]) <= tol * std::max(1.0, std::fabs(b[i]))))
            return false;
    }
    return true;
}

std::string showValues(const std::vector<double>& v)
{
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

std::vector<double> layerNormRows(
    const std::vector<double>& x, std::size_t width, const std::vector<double>& weight, const std::vector<double>& bias)
{
    std::vector<double> out(x.size());
    const double n = double(width);
    for (std::size_t row = 0; row < x.size() / width; ++row) {
        const double* in = x.data() + row * width;
        double m = 0, v = 0;
        for (std::size_t k = 0; k < width; ++k)
            m += in[k] / n;
        for (std::size_t k = 0; k < width; ++k)
            v += (in[k] - m) * (in[k] - m) / n;
        for (std::size_t k = 0; k < width; ++k) {
            const double normed = (in[k] - m) / std::sqrt(v + 1e-5);
            out[row * width + k] = double(float(weight.empty() ? normed : normed * weight[k] + bias[k]));
        }
    }
    return out;
}

nlohmann::json tensorMetaJson(std::vector<std::int64_t> sizes, int dtype)
{
    nlohmann::json s = nlohmann::json::array();
    nlohmann::json st = nlohmann::json::array();
    const std::vector<std::int64_t> strides = contiguousStrides<std::int64_t>(sizes); // torch's, size-0 rule included
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        s.push_back({ { "as_int", sizes[i] } });
        st.push_back({ { "as_int", strides[i] } });
    }
    return { { "dtype", dtype }, { "sizes", s }, { "requires_grad", false },
        { "device", { { "type", "cpu" }, { "index", nullptr } } }, { "strides", st },
        { "storage_offset", { { "as_int", 0 } } }, { "layout", 7 } };
}

nlohmann::json tensorArgJson(const std::string& name) { return { { "as_tensor", { { "name", name } } } }; }

Result<MethodRun> emitAndRunForward(Dump& dump, const std::vector<HostTensor>& inputs, const std::string& name)
{
    PTE_TRY(auto built, dump.build(name));
    PTE_TRY(
        auto emitted, emitAndReload({ { "forward", std::shared_ptr<const ExportedProgram>(std::move(built)) } }, name));
    return runMethod(*emitted.file->program, "forward", inputs);
}

} // namespace pte::test
