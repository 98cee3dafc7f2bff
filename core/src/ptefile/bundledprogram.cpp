// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/bundledprogram.h"

#include "base/flatbuffervectors.h"
#include "pte/graph.h"
#include "pte/schema/bundled_program_generated.h"
#include "pte/tensortext.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <tuple>

namespace pte {

namespace {

namespace fbb = ::bundled_program_flatbuffer;

std::string at(const std::string& base, std::size_t i) { return base + "[" + std::to_string(i) + "]"; }

BundledValue decodeValue(const fbb::Value* v, const Bytes& file)
{
    BundledValue out;
    if (!v)
        return out;
    switch (v->val_type()) {
    case fbb::ValueUnion::Tensor:
        if (const auto* t = v->val_as_Tensor()) {
            out.kind = BundledValue::Kind::Tensor;
            out.scalarType = static_cast<ScalarType>(static_cast<std::int8_t>(t->scalar_type()));
            out.sizes = base::scalarVector(t->sizes());
            out.dimOrder = base::scalarVector(t->dim_order());
            if (const auto* d = t->data())
                out.data = file.slice(std::size_t(d->data() - file.data()), d->size());
        }
        break;
    case fbb::ValueUnion::Int:
        if (const auto* i = v->val_as_Int()) {
            out.kind = BundledValue::Kind::Int;
            out.intValue = i->int_val();
        }
        break;
    case fbb::ValueUnion::Bool:
        if (const auto* b = v->val_as_Bool()) {
            out.kind = BundledValue::Kind::Bool;
            out.boolValue = b->bool_val();
        }
        break;
    case fbb::ValueUnion::Double:
        if (const auto* d = v->val_as_Double()) {
            out.kind = BundledValue::Kind::Double;
            out.doubleValue = d->double_val();
        }
        break;
    default:
        break;
    }
    return out;
}

std::vector<BundledValue> decodeValues(const flatbuffers::Vector<flatbuffers::Offset<fbb::Value>>* v, const Bytes& file)
{
    std::vector<BundledValue> out;
    if (v)
        for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i)
            out.push_back(decodeValue(v->Get(i), file));
    return out;
}

/** A tensor as its type ("f32[2, 3]", tensortext.h); other values by their kind's name. */
std::string describe(const BundledValue& v)
{
    if (v.kind != BundledValue::Kind::Tensor)
        return bundledValueKindName(v.kind);
    return tensorTypeText(v.scalarType, v.sizes);
}

std::string describe(const ExecutionPlan& plan, std::int32_t index)
{
    if (index < 0 || std::size_t(index) >= plan.values.size())
        return "<out of range>";
    const auto& v = plan.values[std::size_t(index)];
    if (const auto* t = v.tensor())
        return tensorTypeText(t->scalarType, t->sizes);
    return valueKindName(v.kind());
}

/** Whether a bundled value can stand for the method's value (kind, dtype, static sizes). */
bool compatible(const BundledValue& b, const ExecutionPlan& plan, std::int32_t index)
{
    if (index < 0 || std::size_t(index) >= plan.values.size())
        return false;
    const auto& v = plan.values[std::size_t(index)];
    switch (b.kind) {
    case BundledValue::Kind::Tensor: {
        const auto* t = v.tensor();
        if (!t || t->scalarType != b.scalarType || t->sizes.size() != b.sizes.size())
            return false;
        if (t->shapeDynamism != ShapeDynamism::Static)
            return true; // the sizes may change at run time, up to the bounds
        return t->sizes == b.sizes;
    }
    case BundledValue::Kind::Int:
        return v.kind() == ValueKind::Int;
    case BundledValue::Kind::Bool:
        return v.kind() == ValueKind::Bool;
    case BundledValue::Kind::Double:
        return v.kind() == ValueKind::Double;
    case BundledValue::Kind::None:
        break;
    }
    return false;
}

} // namespace

const char* bundledValueKindName(BundledValue::Kind kind) noexcept
{
    switch (kind) {
    case BundledValue::Kind::Tensor:
        return "Tensor";
    case BundledValue::Kind::Int:
        return "Int";
    case BundledValue::Kind::Bool:
        return "Bool";
    case BundledValue::Kind::Double:
        return "Double";
    case BundledValue::Kind::None:
        break;
    }
    return "NONE";
}

const BundledTestSuite* BundledProgram::suite(std::string_view method) const noexcept
{
    for (const auto& s : testSuites)
        if (s.methodName == method)
            return &s;
    return nullptr;
}

bool isBundledProgram(std::span<const std::uint8_t> head) noexcept
{
    return head.size() >= 8 && std::memcmp(head.data() + 4, "BP08", 4) == 0;
}

Result<BundledProgram> readBundledProgram(Bytes bytes, const std::string& name)
{
    if (!isBundledProgram(bytes.span()))
        return fail(ErrorCode::NotAPteFile, name + " is not a bundled program (no identifier BP08 at byte 4)", 4);
    if (bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE)
        return fail(ErrorCode::Unsupported,
            name + ": the bundled program is " + std::to_string(bytes.size())
                + " bytes, above the flatbuffers limit of 2 GiB",
            0);
    if (reinterpret_cast<std::uintptr_t>(bytes.data()) % 32 != 0) {
        // The program inside must keep its alignment; only an unaligned in-memory buffer is copied.
        auto owner = std::make_shared<std::vector<std::max_align_t>>(
            (bytes.size() + 2 * sizeof(std::max_align_t) + 32) / sizeof(std::max_align_t));
        auto* raw = reinterpret_cast<std::uint8_t*>(owner->data());
        raw += (32 - reinterpret_cast<std::uintptr_t>(raw) % 32) % 32;
        std::memcpy(raw, bytes.data(), bytes.size());
        bytes = Bytes(owner, std::span<const std::uint8_t>(raw, bytes.size()));
    }
    flatbuffers::Verifier::Options vo;
    vo.check_alignment = true;
    flatbuffers::Verifier verifier(bytes.data(), bytes.size(), vo);
    if (!verifier.VerifyBuffer<fbb::BundledProgram>("BP08"))
        return fail(ErrorCode::VerificationFailed,
            name + ": the flatbuffers verifier rejected the bundled program (bytes 0.." + std::to_string(bytes.size())
                + "): an offset, vector or string points outside the file, or a union is malformed; the file is "
                  "corrupt or truncated",
            0);
    const auto* root = fbb::GetBundledProgram(bytes.data());
    BundledProgram out;
    out.file = bytes;
    out.version = root->version();
    const auto* program = root->program();
    if (!program || program->size() == 0)
        return fail(ErrorCode::InvalidInput, name + ": the bundled program holds no program bytes", 0, "program");
    out.programOffset = std::uint64_t(program->data() - bytes.data());
    out.programSize = program->size();
    if (const auto* suites = root->method_test_suites()) {
        for (flatbuffers::uoffset_t i = 0; i < suites->size(); ++i) {
            const auto* s = suites->Get(i);
            BundledTestSuite suite;
            suite.methodName = s->method_name() ? s->method_name()->str() : std::string();
            if (const auto* cases = s->test_cases())
                for (flatbuffers::uoffset_t k = 0; k < cases->size(); ++k) {
                    const auto* c = cases->Get(k);
                    suite.testCases.push_back(BundledTestCase {
                        decodeValues(c->inputs(), bytes), decodeValues(c->expected_outputs(), bytes) });
                }
            out.testSuites.push_back(std::move(suite));
        }
    }
    return out;
}

Diagnostics checkBundledProgram(const BundledProgram& bundled, const Program& program, const std::string& file)
{
    Diagnostics out;
    auto warn = [&](std::string msg, std::string path) {
        out.push_back(Diagnostic {
            Severity::Warning, ErrorCode::InvalidInput, std::move(msg), std::nullopt, std::move(path), file });
    };
    for (std::size_t s = 0; s < bundled.testSuites.size(); ++s) {
        const auto& suite = bundled.testSuites[s];
        const std::string spath = at("method_test_suites", s);
        const auto* plan = program.method(suite.methodName);
        if (!plan) {
            warn("the test suite names method '" + suite.methodName + "', which the program does not have",
                spath + ".method_name");
            continue;
        }
        for (std::size_t c = 0; c < suite.testCases.size(); ++c) {
            const auto& tc = suite.testCases[c];
            const std::string cpath = spath + at(".test_cases", c);
            auto check = [&](const std::vector<BundledValue>& values, const std::vector<std::int32_t>& indices,
                             const char* what, const char* field) {
                if (values.size() != indices.size()) {
                    warn("test case " + std::to_string(c) + " of '" + suite.methodName + "' has "
                            + std::to_string(values.size()) + " " + what + ", the method has "
                            + std::to_string(indices.size()),
                        cpath + "." + field);
                    return;
                }
                for (std::size_t i = 0; i < values.size(); ++i) {
                    const auto& v = values[i];
                    const std::string vpath = cpath + "." + field + "[" + std::to_string(i) + "]";
                    if (!compatible(v, *plan, indices[i]))
                        warn(std::string(what) + " " + std::to_string(i) + " of test case " + std::to_string(c) + " is "
                                + describe(v) + ", but the method's value is " + describe(*plan, indices[i]),
                            vpath);
                    if (v.kind == BundledValue::Kind::Tensor) {
                        std::uint64_t numel = 1;
                        bool ok = true;
                        for (const auto d : v.sizes) {
                            ok = ok && d >= 0;
                            numel *= std::uint64_t(std::max(d, 0));
                        }
                        if (ok && numel * elementSize(v.scalarType) != v.data.size())
                            warn(std::string(what) + " " + std::to_string(i) + " of test case " + std::to_string(c)
                                    + " holds " + std::to_string(v.data.size()) + " bytes, but " + describe(v)
                                    + " needs " + std::to_string(numel * elementSize(v.scalarType)),
                                vpath + ".val.data");
                    }
                }
            };
            check(tc.inputs, plan->inputs, "input", "inputs");
            check(tc.expectedOutputs, plan->outputs, "expected output", "expected_outputs");
        }
    }
    return out;
}

Result<std::vector<std::uint8_t>> serializeBundledProgram(
    const BundledProgram& bundled, std::span<const std::uint8_t> program)
{
    std::uint64_t total = program.size();
    for (const auto& s : bundled.testSuites)
        for (const auto& c : s.testCases) {
            for (const auto& v : c.inputs)
                total += v.data.size() + 64;
            for (const auto& v : c.expectedOutputs)
                total += v.data.size() + 64;
        }
    if (total >= FLATBUFFERS_MAX_BUFFER_SIZE - (1u << 20))
        return fail(ErrorCode::Unsupported,
            "the bundled program would be about " + std::to_string(total)
                + " bytes, above the flatbuffers limit of 2 GiB");
    flatbuffers::FlatBufferBuilder b(std::size_t(total) + 1024);
    auto values = [&](const std::vector<BundledValue>& in) {
        std::vector<flatbuffers::Offset<fbb::Value>> out;
        for (const auto& v : in) {
            switch (v.kind) {
            case BundledValue::Kind::Tensor: {
                const auto sizes = b.CreateVector(v.sizes);
                b.ForceVectorAlignment(v.data.size(), 1, 16);
                const auto data = b.CreateVector(v.data.data(), v.data.size());
                const auto dimOrder = b.CreateVector(v.dimOrder);
                const auto t = fbb::CreateTensor(b,
                    static_cast<executorch_flatbuffer::ScalarType>(static_cast<std::int8_t>(v.scalarType)), sizes, data,
                    dimOrder);
                out.push_back(fbb::CreateValue(b, fbb::ValueUnion::Tensor, t.Union()));
                break;
            }
            case BundledValue::Kind::Int:
                out.push_back(fbb::CreateValue(b, fbb::ValueUnion::Int, fbb::CreateInt(b, v.intValue).Union()));
                break;
            case BundledValue::Kind::Bool:
                out.push_back(fbb::CreateValue(b, fbb::ValueUnion::Bool, fbb::CreateBool(b, v.boolValue).Union()));
                break;
            case BundledValue::Kind::Double:
                out.push_back(
                    fbb::CreateValue(b, fbb::ValueUnion::Double, fbb::CreateDouble(b, v.doubleValue).Union()));
                break;
            case BundledValue::Kind::None:
                out.push_back(fbb::CreateValue(b));
                break;
            }
        }
        return b.CreateVector(out);
    };
    std::vector<flatbuffers::Offset<fbb::BundledMethodTestSuite>> suites;
    for (const auto& s : bundled.testSuites) {
        std::vector<flatbuffers::Offset<fbb::BundledMethodTestCase>> cases;
        for (const auto& c : s.testCases) {
            const auto inputs = values(c.inputs);
            const auto outputs = values(c.expectedOutputs);
            cases.push_back(fbb::CreateBundledMethodTestCase(b, inputs, outputs));
        }
        const auto name = b.CreateString(s.methodName);
        const auto caseVector = b.CreateVector(cases);
        suites.push_back(fbb::CreateBundledMethodTestSuite(b, name, caseVector));
    }
    const auto suiteVector = b.CreateVector(suites);
    b.ForceVectorAlignment(program.size(), 1, 32);
    const auto programVector = b.CreateVector(program.data(), program.size());
    b.Finish(fbb::CreateBundledProgram(b, bundled.version, suiteVector, programVector), "BP08");
    return std::vector<std::uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

std::optional<std::string> bundledTestSuitesDifference(const BundledProgram& a, const BundledProgram& b)
{
    if (a.version != b.version)
        return "version: " + std::to_string(a.version) + " != " + std::to_string(b.version);
    if (a.testSuites.size() != b.testSuites.size())
        return "method_test_suites: " + std::to_string(a.testSuites.size())
            + " != " + std::to_string(b.testSuites.size()) + " suites";
    auto valueDiff = [](const BundledValue& x, const BundledValue& y) -> std::optional<std::string> {
        if (x.kind != y.kind)
            return std::string(bundledValueKindName(x.kind)) + " != " + bundledValueKindName(y.kind);
        if (x.scalarType != y.scalarType || x.sizes != y.sizes || x.dimOrder != y.dimOrder)
            return describe(x) + " != " + describe(y) + " (dtype, sizes or dim order)";
        if (!x.data.contentEquals(y.data))
            return std::string("the tensor bytes differ");
        if (x.intValue != y.intValue || x.boolValue != y.boolValue
            || std::memcmp(&x.doubleValue, &y.doubleValue, sizeof(double)) != 0)
            return std::string("the scalar values differ");
        return std::nullopt;
    };
    for (std::size_t s = 0; s < a.testSuites.size(); ++s) {
        const auto& sa = a.testSuites[s];
        const auto& sb = b.testSuites[s];
        const std::string spath = at("method_test_suites", s);
        if (sa.methodName != sb.methodName)
            return spath + ".method_name: " + sa.methodName + " != " + sb.methodName;
        if (sa.testCases.size() != sb.testCases.size())
            return spath + ".test_cases: " + std::to_string(sa.testCases.size())
                + " != " + std::to_string(sb.testCases.size()) + " cases";
        for (std::size_t c = 0; c < sa.testCases.size(); ++c) {
            for (const auto& [field, va, vb] :
                { std::tuple { "inputs", &sa.testCases[c].inputs, &sb.testCases[c].inputs },
                    std::tuple {
                        "expected_outputs", &sa.testCases[c].expectedOutputs, &sb.testCases[c].expectedOutputs } }) {
                const std::string vpath = spath + at(".test_cases", c) + "." + field;
                if (va->size() != vb->size())
                    return vpath + ": " + std::to_string(va->size()) + " != " + std::to_string(vb->size()) + " values";
                for (std::size_t i = 0; i < va->size(); ++i)
                    if (auto d = valueDiff((*va)[i], (*vb)[i]))
                        return at(vpath, i) + ": " + *d;
            }
        }
    }
    return std::nullopt;
}

std::string bundledProgramToJson(const BundledProgram& bundled, const Program& program, const JsonDumpOptions& options)
{
    using Json = nlohmann::ordered_json;
    auto value = [](const BundledValue& v) {
        Json j;
        j["val_type"] = v.kind == BundledValue::Kind::None ? "NONE" : bundledValueKindName(v.kind);
        Json val;
        switch (v.kind) {
        case BundledValue::Kind::Tensor: {
            const char* dtype = scalarTypeSchemaName(v.scalarType);
            if (*dtype)
                val["scalar_type"] = dtype;
            else
                val["scalar_type"] = int(v.scalarType);
            val["sizes"] = v.sizes;
            val["data"] = Json { { "size", v.data.size() }, { "sha256", sha256Hex(v.data.span()) } };
            val["dim_order"] = v.dimOrder;
            break;
        }
        case BundledValue::Kind::Int:
            val["int_val"] = v.intValue;
            break;
        case BundledValue::Kind::Bool:
            val["bool_val"] = v.boolValue;
            break;
        case BundledValue::Kind::Double:
            if (std::isfinite(v.doubleValue))
                val["double_val"] = v.doubleValue;
            else
                val["double_val"] = std::isnan(v.doubleValue) ? "nan" : (v.doubleValue > 0 ? "inf" : "-inf");
            break;
        case BundledValue::Kind::None:
            return j;
        }
        j["val"] = std::move(val);
        return j;
    };
    Json j;
    j["version"] = bundled.version;
    Json suites = Json::array();
    for (const auto& s : bundled.testSuites) {
        Json sj;
        sj["method_name"] = s.methodName;
        Json cases = Json::array();
        for (const auto& c : s.testCases) {
            Json cj;
            cj["inputs"] = Json::array();
            for (const auto& v : c.inputs)
                cj["inputs"].push_back(value(v));
            cj["expected_outputs"] = Json::array();
            for (const auto& v : c.expectedOutputs)
                cj["expected_outputs"].push_back(value(v));
            cases.push_back(std::move(cj));
        }
        sj["test_cases"] = std::move(cases);
        suites.push_back(std::move(sj));
    }
    j["method_test_suites"] = std::move(suites);
    j["program"] = Json::parse(programToJson(program, JsonDumpOptions { -1 }), nullptr, false);
    return j.dump(options.indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<std::vector<double>> bundledTensorValues(const BundledValue& value, std::size_t maxElements)
{
    if (value.kind != BundledValue::Kind::Tensor)
        return fail(ErrorCode::InvalidInput,
            std::string("the bundled value is a ") + bundledValueKindName(value.kind) + ", not a Tensor");
    const std::size_t rank = value.sizes.size();
    std::vector<std::int64_t> sizes(value.sizes.begin(), value.sizes.end());
    // Strides from the dim order: the last dimension in dim order varies fastest in memory.
    std::vector<std::int64_t> strides(rank, 1);
    if (value.dimOrder.size() == rank) {
        std::vector<bool> seen(rank, false);
        for (const auto d : value.dimOrder) {
            if (d >= rank || seen[d])
                return fail(ErrorCode::InvalidInput, "the bundled tensor's dim_order is not a permutation");
            seen[d] = true;
        }
        std::int64_t stride = 1;
        for (std::size_t i = rank; i-- > 0;) {
            strides[value.dimOrder[i]] = stride;
            stride *= std::max<std::int64_t>(sizes[value.dimOrder[i]], 1);
        }
    } else {
        strides.clear();
    }
    return tensorValues(value.scalarType, sizes, strides, value.data, maxElements, "the bundled tensor");
}

} // namespace pte
