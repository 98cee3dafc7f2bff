// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The inputs of a reference run: the runner's fill rule and --inputs file, a bundled test case.
#include "pte/referenceinputs.h"

#include "interp/tensorstate.h"
#include "pte/graphtext.h"
#include "pte/mappedfile.h"
#include "pte/tensortext.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

namespace pte {

namespace {

using nlohmann::json;

bool isQuantizedInteger(ScalarType t)
{
    return t == ScalarType::QInt8 || t == ScalarType::QUInt8 || t == ScalarType::QInt32;
}

/** `values` (row-major) as `dtype` stores them: each converted to the element type and read back. Dtypes the
 *  interpreter cannot hold keep their values. */
std::vector<double> roundToDtype(ScalarType dtype, std::vector<double> values)
{
    if (!interp::supportedDtype(dtype))
        return values;
    std::vector<std::uint8_t> bytes(elementSize(dtype));
    interp::TensorState t;
    t.dtype = dtype;
    t.data = bytes.data();
    for (auto& v : values) {
        t.set(0, v);
        v = t.get(0);
    }
    return values;
}

/** Input `k`'s fill: its values in row-major order, counting the pattern in memory order. */
HostTensor fillTensor(const Tensor& t, std::size_t k, RunnerFill fill)
{
    HostTensor h;
    h.dtype = t.scalarType;
    h.sizes.assign(t.sizes.begin(), t.sizes.end());
    interp::TensorState layout;
    layout.sizes = h.sizes;
    layout.dimOrder = t.dimOrder;
    const std::size_t n = layout.numel();
    const bool floating = isFloatingType(t.scalarType);
    const bool integer = isIntegralType(t.scalarType) || isQuantizedInteger(t.scalarType);
    const bool boolean = t.scalarType == ScalarType::Bool;
    h.values.assign(n, 0.0);
    if (!floating && !integer && !boolean)
        return h; // the runner leaves other dtypes zeroed
    for (std::size_t e = 0; e < n; ++e) {
        const std::size_t i = layout.physical(e) + k;
        switch (fill) {
        case RunnerFill::Pattern:
            h.values[e] = floating ? 0.1 * double(i % 7) + 0.5 : integer ? double(i % 5) : double(i % 2);
            break;
        case RunnerFill::Ones:
            h.values[e] = 1;
            break;
        case RunnerFill::Zeros:
            break;
        }
    }
    h.values = roundToDtype(t.scalarType, std::move(h.values));
    return h;
}

Unexpected jsonError(const std::string& name, const std::string& path, const std::string& what)
{
    return fail(ErrorCode::InvalidInput, name + ": " + path + ": " + what);
}

/** One JSON element as a value of `dtype`, as the runner converts it. */
Result<double> jsonElement(const json& j, ScalarType dtype, const std::string& name, const std::string& path)
{
    double v = 0;
    if (j.is_boolean()) {
        v = j.get<bool>() ? 1 : 0;
    } else if (j.is_number_integer()) {
        v = j.is_number_unsigned() ? double(j.get<std::uint64_t>()) : double(j.get<std::int64_t>());
    } else if (j.is_number_float()) {
        v = j.get<double>();
    } else if (j.is_string() && isFloatingType(dtype)) {
        const auto& s = j.get_ref<const std::string&>();
        if (s == "nan")
            v = std::numeric_limits<double>::quiet_NaN();
        else if (s == "inf")
            v = std::numeric_limits<double>::infinity();
        else if (s == "-inf")
            v = -std::numeric_limits<double>::infinity();
        else
            return jsonError(name, path, "\"" + s + "\" is not a number (only \"nan\", \"inf\", \"-inf\")");
    } else {
        return jsonError(name, path, std::string("expected a number, got ") + j.type_name());
    }
    if (isFloatingType(dtype))
        return v;
    if (dtype == ScalarType::Bool) {
        if (v != 0 && v != 1)
            return jsonError(name, path, "a Bool is true, false, 0 or 1");
        return v;
    }
    if (!j.is_boolean() && !j.is_number_integer())
        return jsonError(
            name, path, std::string("an integer dtype (") + scalarTypeShortName(dtype) + ") takes integers");
    // Ranges of the integer dtypes: overflow and negative values for unsigned types are errors.
    const auto bits = double(elementSize(dtype) * 8);
    const bool isSigned = dtype == ScalarType::Char || dtype == ScalarType::Short || dtype == ScalarType::Int
        || dtype == ScalarType::Long || dtype == ScalarType::QInt8 || dtype == ScalarType::QInt32;
    const double lo = isSigned ? -std::pow(2.0, bits - 1) : 0;
    const double hi = isSigned ? std::pow(2.0, bits - 1) - 1 : std::pow(2.0, bits) - 1;
    if (v < lo || v > hi)
        return jsonError(name, path, "out of range for " + std::string(scalarTypeShortName(dtype)));
    return v;
}

/** Appends the elements of a (nested) JSON list, depth first. */
Result<void> flatten(const json& j, ScalarType dtype, const std::string& name, const std::string& path,
    std::vector<double>& out, std::size_t limit)
{
    if (!j.is_array()) {
        PTE_TRY(const double v, jsonElement(j, dtype, name, path));
        out.push_back(v);
        return {};
    }
    for (std::size_t i = 0; i < j.size(); ++i) {
        if (out.size() > limit)
            return {};
        PTE_CHECK(flatten(j[i], dtype, name, path + "[" + std::to_string(i) + "]", out, limit));
    }
    return {};
}

} // namespace

HostTensor storedScalar(const EValue& v)
{
    HostTensor h;
    if (const auto* i = std::get_if<Int>(&v.val)) {
        h.dtype = ScalarType::Long;
        h.values = { double(i->intVal) };
    } else if (const auto* d = std::get_if<Double>(&v.val)) {
        h.dtype = ScalarType::Double;
        h.values = { d->doubleVal };
    } else if (const auto* b = std::get_if<Bool>(&v.val)) {
        h.dtype = ScalarType::Bool;
        h.values = { b->boolVal ? 1.0 : 0.0 };
    }
    return h;
}

const char* runnerFillName(RunnerFill fill) noexcept
{
    switch (fill) {
    case RunnerFill::Pattern:
        return "pattern";
    case RunnerFill::Ones:
        return "ones";
    case RunnerFill::Zeros:
        return "zeros";
    }
    return "?";
}

Result<ReferenceInputSpec> ReferenceInputSpec::parse(std::string_view text)
{
    ReferenceInputSpec spec;
    for (const auto fill : { RunnerFill::Pattern, RunnerFill::Ones, RunnerFill::Zeros })
        if (text == runnerFillName(fill)) {
            spec.fill = fill;
            return spec;
        }
    if (text == "bundled" || text.starts_with("bundled:")) {
        spec.kind = Kind::Bundled;
        if (text.size() > 8) {
            const std::string_view number = text.substr(8);
            std::size_t n = 0;
            const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
            if (ec != std::errc() || end != number.data() + number.size())
                return fail(ErrorCode::InvalidInput,
                    "reference inputs '" + std::string(text) + "': 'bundled:' takes a test case number");
            spec.testCase = n;
        }
        return spec;
    }
    spec.kind = Kind::JsonFile;
    spec.path = std::string(text);
    return spec;
}

ReferenceInputs runnerFillInputs(const ExecutionPlan& plan, RunnerFill fill)
{
    ReferenceInputs out;
    out.source = std::string("runner ") + runnerFillName(fill) + " fill";
    out.assumed = true;
    for (std::size_t k = 0; k < plan.inputs.size(); ++k) {
        const auto id = plan.inputs[k];
        if (id < 0 || std::size_t(id) >= plan.values.size()) {
            out.values.emplace_back();
            continue;
        }
        const EValue& v = plan.values[std::size_t(id)];
        out.values.push_back(v.tensor() ? fillTensor(*v.tensor(), k, fill) : storedScalar(v));
    }
    return out;
}

Result<ReferenceInputs> bundledInputs(
    const BundledProgram& bundled, const ExecutionPlan& plan, std::optional<std::size_t> testCase)
{
    const auto* suite = bundled.suite(plan.name);
    if (!suite || suite->testCases.empty())
        return fail(ErrorCode::InvalidInput, "the bundled program has no test case for method '" + plan.name + "'");
    const std::size_t index = testCase.value_or(suite->testCases.size() - 1);
    if (index >= suite->testCases.size())
        return fail(ErrorCode::InvalidInput,
            "method '" + plan.name + "' has " + std::to_string(suite->testCases.size())
                + " bundled test cases; there is no case " + std::to_string(index));
    const auto& tc = suite->testCases[index];
    const std::string where = "bundled test case " + std::to_string(index);
    if (tc.inputs.size() != plan.inputs.size())
        return fail(ErrorCode::InvalidInput,
            where + " has " + std::to_string(tc.inputs.size()) + " inputs; method '" + plan.name + "' takes "
                + std::to_string(plan.inputs.size()));
    ReferenceInputs out;
    out.source = where;
    for (std::size_t k = 0; k < tc.inputs.size(); ++k) {
        const BundledValue& in = tc.inputs[k];
        const auto id = plan.inputs[k];
        const EValue* v = id >= 0 && std::size_t(id) < plan.values.size() ? &plan.values[std::size_t(id)] : nullptr;
        const std::string what = where + ", input " + std::to_string(k);
        if (in.kind != BundledValue::Kind::Tensor) {
            if (!v || v->tensor())
                return fail(
                    ErrorCode::InvalidInput, what + ": a tensor input given as " + bundledValueKindName(in.kind));
            out.values.push_back(storedScalar(*v));
            continue;
        }
        if (!v || !v->tensor())
            return fail(ErrorCode::InvalidInput, what + ": a tensor for an input that is not one");
        PTE_TRY(auto numbers, bundledTensorValues(in));
        HostTensor h;
        h.dtype = in.scalarType;
        h.sizes.assign(in.sizes.begin(), in.sizes.end());
        h.values = std::move(numbers);
        out.values.push_back(std::move(h));
    }
    return out;
}

Result<ReferenceInputs> runnerJsonInputs(
    const Program& program, const std::string& method, std::string_view text, const std::string& name, RunnerFill fill)
{
    const ExecutionPlan* plan = program.method(method);
    if (!plan)
        return fail(ErrorCode::InvalidInput, "no method '" + method + "'");
    const json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded())
        return fail(ErrorCode::InvalidInput, name + ": not valid JSON");
    if (!doc.is_object())
        return jsonError(name, "$", "expected an object keyed by method name");
    for (const auto& [key, value] : doc.items())
        if (!program.method(key))
            return jsonError(name, key, "the program has no method '" + key + "'");
    ReferenceInputs out = runnerFillInputs(*plan, fill);
    out.source = name.substr(name.find_last_of('/') + 1); // npos + 1 = 0
    out.assumed = false;
    const auto it = doc.find(method);
    if (it == doc.end())
        return out;
    if (!it->is_array())
        return jsonError(name, method, "expected a list with one entry per input");
    if (it->size() > plan->inputs.size())
        return jsonError(name, method,
            std::to_string(it->size()) + " entries for " + std::to_string(plan->inputs.size()) + " inputs");
    for (std::size_t k = 0; k < it->size(); ++k) {
        const json& entry = (*it)[k];
        if (entry.is_null())
            continue;
        const std::string path = method + "[" + std::to_string(k) + "]";
        const EValue& v = plan->values.at(std::size_t(plan->inputs[k]));
        HostTensor& h = out.values[k];
        if (const Tensor* t = v.tensor()) {
            std::vector<double> values;
            const std::size_t numel = h.values.size();
            PTE_CHECK(flatten(entry, t->scalarType, name, path, values, numel));
            if (values.size() != numel)
                return jsonError(name, path,
                    (values.size() > numel ? "more than " : std::to_string(values.size()) + " values, not ")
                        + std::to_string(numel) + " values (the input's numel)");
            h.values = roundToDtype(t->scalarType, std::move(values));
            continue;
        }
        if (h.values.size() != 1)
            return jsonError(name, path, "only tensor, Int, Double and Bool inputs can be given");
        const json& scalar = entry.is_array() && entry.size() == 1 ? entry[0] : entry;
        PTE_TRY(const double given, jsonElement(scalar, h.dtype, name, path));
        // The runtime accepts only the exported value (a Double within 1e-4 + 1e-5 * |value|) and keeps it.
        const double stored = h.values[0];
        const bool accepted = h.dtype == ScalarType::Double
            ? std::fabs(given - stored) <= 1e-4 + 1e-5 * std::fabs(stored)
            : given == stored;
        if (!accepted)
            return jsonError(name, path,
                "the runtime accepts only the value the program stores (" + elementText(stored, h.dtype) + ")");
    }
    return out;
}

Result<ReferenceInputs> rawFileInputs(const ExecutionPlan& plan, const std::vector<std::string>& paths)
{
    std::vector<std::size_t> tensorInputs;
    for (std::size_t k = 0; k < plan.inputs.size(); ++k) {
        const auto id = plan.inputs[k];
        if (id >= 0 && std::size_t(id) < plan.values.size() && plan.values[std::size_t(id)].tensor())
            tensorInputs.push_back(k);
    }
    if (paths.size() != tensorInputs.size())
        return fail(ErrorCode::InvalidInput,
            std::to_string(paths.size()) + (paths.size() == 1 ? " file" : " files") + " for the "
                + std::to_string(tensorInputs.size()) + " tensor input(s) of method '" + plan.name + "'");
    ReferenceInputs out = runnerFillInputs(plan, RunnerFill::Zeros);
    out.assumed = false;
    out.source.clear();
    for (std::size_t f = 0; f < paths.size(); ++f) {
        const std::size_t k = tensorInputs[f];
        const Tensor& t = *plan.values[std::size_t(plan.inputs[k])].tensor();
        PTE_TRY(const Bytes bytes, mapFile(paths[f]));
        const std::string what = "input " + std::to_string(k) + " (" + tensorTypeText(t.scalarType, t.sizes)
            + ") of method '" + plan.name + "'";
        if (!interp::supportedDtype(t.scalarType))
            return fail(ErrorCode::InvalidInput, paths[f] + ": " + what + " has a dtype the interpreter cannot hold");
        HostTensor& h = out.values[k];
        const std::size_t nbytes = h.values.size() * elementSize(t.scalarType);
        if (bytes.size() != nbytes)
            return fail(ErrorCode::InvalidInput,
                paths[f] + ": " + std::to_string(bytes.size()) + " bytes; " + what + " takes "
                    + std::to_string(nbytes));
        interp::TensorState layout;
        layout.dtype = t.scalarType;
        layout.sizes = h.sizes;
        layout.dimOrder = t.dimOrder;
        layout.data = const_cast<std::uint8_t*>(bytes.data()); // read only
        layout.capacity = nbytes;
        for (std::size_t e = 0; e < h.values.size(); ++e)
            h.values[e] = layout.get(e);
        out.source += (f ? "," : "") + paths[f].substr(paths[f].find_last_of('/') + 1); // npos + 1 = 0
    }
    if (paths.empty())
        out.source = "no raw inputs";
    return out;
}

namespace {

std::string userInputName(const InputSpec& spec)
{
    if (!spec.arg.names.empty())
        return spec.arg.names.front();
    if (!spec.arg.syms.empty() && !spec.arg.syms.front().value)
        return spec.arg.syms.front().expr;
    return {};
}

/** "kwargs['mask']" -> "mask"; empty for anything else (args leaves, nested kwargs leaves). */
std::string kwargName(const std::string& path)
{
    static constexpr std::string_view prefix = "kwargs['";
    if (path.size() <= prefix.size() + 2 || path.compare(0, prefix.size(), prefix) != 0
        || path.compare(path.size() - 2, 2, "']") != 0)
        return {};
    std::string key = path.substr(prefix.size(), path.size() - prefix.size() - 2);
    return key.find('\'') == std::string::npos ? key : std::string();
}

} // namespace

std::vector<std::optional<std::size_t>> sampleInputLeaves(const ExportedProgram& dump)
{
    std::vector<std::optional<std::size_t>> out;
    if (!dump.sampleInputs)
        return out;
    const auto& leaves = dump.sampleInputs->leaves;
    std::vector<bool> used(leaves.size(), false);
    std::map<std::string, std::size_t> kwargs;
    std::vector<std::size_t> args;
    for (std::size_t i = 0; i < leaves.size(); ++i) {
        if (leaves[i].path.compare(0, 4, "args") == 0)
            args.push_back(i);
        else if (const std::string key = kwargName(leaves[i].path); !key.empty())
            kwargs.emplace(key, i);
    }
    std::size_t nextArg = 0;
    for (const auto& spec : dump.signature.inputSpecs) {
        if (spec.kind != InputKind::UserInput)
            continue;
        const std::string name = userInputName(spec);
        std::optional<std::size_t> leaf;
        if (const auto it = kwargs.find(name); !name.empty() && it != kwargs.end() && !used[it->second])
            leaf = it->second;
        else if (nextArg < args.size())
            leaf = args[nextArg++];
        if (leaf)
            used[*leaf] = true;
        out.push_back(leaf);
    }
    return out;
}

Result<ReferenceInputs> sampleReferenceInputs(const ExportedProgram& dump, const ExecutionPlan& plan)
{
    if (!dump.sampleInputs)
        return fail(ErrorCode::InvalidInput, "the graph dump of method '" + plan.name + "' has no sample inputs");
    const auto leaves = sampleInputLeaves(dump);
    ReferenceInputs out;
    out.source = "sample inputs of " + dump.sampleInputs->source;
    for (std::size_t k = 0; k < plan.inputs.size(); ++k) {
        const auto id = plan.inputs[k];
        if (id < 0 || std::size_t(id) >= plan.values.size())
            return fail(ErrorCode::InvalidInput,
                "input " + std::to_string(k) + " of method '" + plan.name + "' is not a value");
        const EValue& v = plan.values[std::size_t(id)];
        const Tensor* t = v.tensor();
        if (!t) {
            out.values.push_back(storedScalar(v));
            continue;
        }
        const std::string what = "sample input for input " + std::to_string(k) + " of method '" + plan.name + "'";
        if (k >= leaves.size() || !leaves[k] || dump.sampleInputs->leaves[*leaves[k]].kind != SampleInput::Kind::Tensor)
            return fail(ErrorCode::InvalidInput, "the dump has no tensor " + what);
        const SampleInput& leaf = dump.sampleInputs->leaves[*leaves[k]];
        auto elements = tensorElements(leaf.tensor, std::size_t(1) << 26);
        if (!elements)
            return fail(ErrorCode::Unsupported, leaf.path + ": no numbers to read (" + leaf.tensor.source + ")");
        if (elements->size() != t->numel().value_or(0))
            return fail(ErrorCode::InvalidInput,
                leaf.path + " has " + std::to_string(elements->size()) + " elements; input " + std::to_string(k)
                    + " takes " + std::to_string(t->numel().value_or(0)));
        HostTensor h;
        h.dtype = t->scalarType;
        h.sizes.assign(t->sizes.begin(), t->sizes.end());
        h.values = std::move(*elements);
        out.values.push_back(std::move(h));
    }
    return out;
}

Result<ReferenceInputs> resolveReferenceInputs(
    const ReferenceInputSpec& spec, const Program& program, const BundledProgram* bundled, const std::string& method)
{
    const ExecutionPlan* plan = program.method(method);
    if (!plan)
        return fail(ErrorCode::InvalidInput, "no method '" + method + "'");
    switch (spec.kind) {
    case ReferenceInputSpec::Kind::Fill:
        return runnerFillInputs(*plan, spec.fill);
    case ReferenceInputSpec::Kind::Bundled:
        if (!bundled)
            return fail(ErrorCode::InvalidInput, "bundled reference inputs need a bundled program (.bpte)");
        return bundledInputs(*bundled, *plan, spec.testCase);
    case ReferenceInputSpec::Kind::JsonFile: {
        PTE_TRY(const Bytes bytes, mapFile(spec.path));
        const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        return runnerJsonInputs(program, method, text, spec.path, spec.fill);
    }
    }
    return fail(ErrorCode::Internal, "unknown reference input kind");
}

std::optional<std::string> runnerInputsJson(
    const ReferenceInputSpec& spec, const Program& program, const BundledProgram* bundled)
{
    if (spec.kind == ReferenceInputSpec::Kind::JsonFile)
        return std::nullopt;
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    if (spec.kind == ReferenceInputSpec::Kind::Fill && spec.fill == RunnerFill::Pattern)
        return out.dump() + "\n";
    auto number = [](double v, ScalarType dtype) -> nlohmann::ordered_json {
        if (std::isnan(v))
            return "nan";
        if (std::isinf(v))
            return v > 0 ? "inf" : "-inf";
        if (dtype == ScalarType::Bool)
            return v != 0;
        if (isIntegralType(dtype))
            return std::int64_t(v);
        return v;
    };
    for (const auto& plan : program.executionPlan) {
        auto inputs = resolveReferenceInputs(spec, program, bundled, plan.name);
        if (!inputs)
            continue;
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (std::size_t k = 0; k < plan.inputs.size(); ++k) {
            const auto id = plan.inputs[k];
            const bool tensor =
                id >= 0 && std::size_t(id) < plan.values.size() && plan.values[std::size_t(id)].tensor();
            if (!tensor || k >= inputs->values.size()) {
                list.push_back(nullptr);
                continue;
            }
            const HostTensor& h = inputs->values[k];
            nlohmann::ordered_json values = nlohmann::ordered_json::array();
            for (const double v : h.values)
                values.push_back(number(v, h.dtype));
            list.push_back(std::move(values));
        }
        out[plan.name] = std::move(list);
    }
    return out.dump() + "\n";
}

} // namespace pte
