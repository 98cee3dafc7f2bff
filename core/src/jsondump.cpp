// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The program as JSON, shaped like `flatc --json --strict-json --defaults-json` output for
// schema/program.fbs. Deviations (documented in jsondump.h): byte payloads are summarized, doubles that
// are not finite are strings, required vectors are always written.
#include "pte/jsondump.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace pte {

namespace {

using Json = nlohmann::ordered_json;

Json number(double d)
{
    if (std::isnan(d))
        return "nan";
    if (std::isinf(d))
        return d > 0 ? "inf" : "-inf";
    return d;
}

Json bytesSummary(const Bytes& b)
{
    Json j = Json::object();
    j["size"] = b.size();
    j["sha256"] = sha256Hex(b.span());
    return j;
}

template <typename T> Json array(const std::vector<T>& v)
{
    Json j = Json::array();
    for (const auto& x : v)
        j.push_back(x);
    return j;
}

Json scalarType(ScalarType t)
{
    const char* name = scalarTypeSchemaName(t);
    if (name && *name)
        return name;
    return int(static_cast<std::int8_t>(t));
}

Json enumName(int value, std::initializer_list<const char*> names)
{
    if (value >= 0 && std::size_t(value) < names.size())
        return *(names.begin() + value);
    return value;
}

Json tensor(const Tensor& t)
{
    Json j = Json::object();
    j["scalar_type"] = scalarType(t.scalarType);
    j["storage_offset"] = t.storageOffset;
    j["sizes"] = array(t.sizes);
    Json dims = Json::array();
    for (const auto d : t.dimOrder)
        dims.push_back(int(d));
    j["dim_order"] = std::move(dims);
    j["requires_grad"] = t.requiresGrad;
    j["data_buffer_idx"] = t.dataBufferIdx;
    if (t.allocationInfo) {
        Json a = Json::object();
        a["memory_id"] = t.allocationInfo->memoryId;
        a["memory_offset_low"] = t.allocationInfo->memoryOffsetLow;
        a["memory_offset_high"] = t.allocationInfo->memoryOffsetHigh;
        j["allocation_info"] = std::move(a);
    }
    j["layout"] = int(t.layout);
    j["shape_dynamism"] = enumName(int(t.shapeDynamism), { "STATIC", "DYNAMIC_BOUND", "DYNAMIC_UNBOUND" });
    if (t.extraTensorInfo) {
        const auto& x = *t.extraTensorInfo;
        Json e = Json::object();
        e["mutable_data_segments_idx"] = x.mutableDataSegmentsIdx;
        if (x.fullyQualifiedName)
            e["fully_qualified_name"] = *x.fullyQualifiedName;
        e["location"] = enumName(int(x.location), { "SEGMENT", "EXTERNAL" });
        e["device_type"] = enumName(int(x.deviceType), { "CPU", "CUDA" });
        e["device_index"] = int(x.deviceIndex);
        j["extra_tensor_info"] = std::move(e);
    }
    return j;
}

Json value(const EValue& v)
{
    Json j = Json::object();
    if (v.rawType <= 11)
        j["val_type"] = valueKindName(ValueKind(v.rawType));
    else
        j["val_type"] = int(v.rawType);
    Json val;
    std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, Null>) {
                val = Json::object();
            } else if constexpr (std::is_same_v<T, Int>) {
                val = Json::object({ { "int_val", x.intVal } });
            } else if constexpr (std::is_same_v<T, Bool>) {
                val = Json::object({ { "bool_val", x.boolVal } });
            } else if constexpr (std::is_same_v<T, Double>) {
                val = Json::object({ { "double_val", number(x.doubleVal) } });
            } else if constexpr (std::is_same_v<T, Tensor>) {
                val = tensor(x);
            } else if constexpr (std::is_same_v<T, String>) {
                val = Json::object({ { "string_val", x.stringVal } });
            } else if constexpr (std::is_same_v<T, DoubleList>) {
                Json items = Json::array();
                for (const auto d : x.items)
                    items.push_back(number(d));
                val = Json::object({ { "items", std::move(items) } });
            } else if constexpr (std::is_same_v<T, BoolList>) {
                Json items = Json::array();
                for (const bool b : x.items)
                    items.push_back(b);
                val = Json::object({ { "items", std::move(items) } });
            } else if constexpr (
                std::is_same_v<T, IntList> || std::is_same_v<T, TensorList> || std::is_same_v<T, OptionalTensorList>) {
                val = Json::object({ { "items", array(x.items) } });
            }
        },
        v.val);
    if (!val.is_null())
        j["val"] = std::move(val);
    return j;
}

Json instruction(const Instruction& in)
{
    Json j = Json::object();
    if (in.rawType <= 5)
        j["instr_args_type"] = instructionKindName(InstructionKind(in.rawType));
    else
        j["instr_args_type"] = int(in.rawType);
    Json a;
    std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, KernelCall>) {
                a = Json::object({ { "op_index", x.opIndex }, { "args", array(x.args) } });
            } else if constexpr (std::is_same_v<T, DelegateCall>) {
                a = Json::object({ { "delegate_index", x.delegateIndex }, { "args", array(x.args) } });
            } else if constexpr (std::is_same_v<T, MoveCall>) {
                a = Json::object({ { "move_from", x.moveFrom }, { "move_to", x.moveTo } });
            } else if constexpr (std::is_same_v<T, JumpFalseCall>) {
                a = Json::object({ { "cond_value_index", x.condValueIndex },
                    { "destination_instruction", x.destinationInstruction } });
            } else if constexpr (std::is_same_v<T, FreeCall>) {
                a = Json::object({ { "value_index", x.valueIndex } });
            }
        },
        in.args);
    if (!a.is_null())
        j["instr_args"] = std::move(a);
    return j;
}

Json chain(const Chain& c)
{
    Json j = Json::object();
    j["inputs"] = array(c.inputs);
    j["outputs"] = array(c.outputs);
    Json instrs = Json::array();
    for (const auto& in : c.instructions)
        instrs.push_back(instruction(in));
    j["instructions"] = std::move(instrs);
    if (c.stacktrace) {
        Json st = Json::array();
        for (const auto& fl : *c.stacktrace) {
            Json items = Json::array();
            for (const auto& f : fl.items) {
                Json fj = Json::object();
                if (f.filename)
                    fj["filename"] = *f.filename;
                fj["lineno"] = f.lineno;
                if (f.name)
                    fj["name"] = *f.name;
                if (f.context)
                    fj["context"] = *f.context;
                items.push_back(std::move(fj));
            }
            st.push_back(Json::object({ { "items", std::move(items) } }));
        }
        j["stacktrace"] = std::move(st);
    }
    return j;
}

Json delegate(const BackendDelegate& d)
{
    Json j = Json::object();
    j["id"] = d.id;
    Json p = Json::object();
    p["location"] = enumName(int(d.processed.location), { "INLINE", "SEGMENT" });
    p["index"] = d.processed.index;
    j["processed"] = std::move(p);
    Json specs = Json::array();
    for (const auto& s : d.compileSpecs) {
        Json sj = Json::object();
        sj["key"] = s.key;
        Json bytes = Json::array();
        for (const auto b : s.value.span())
            bytes.push_back(int(b));
        sj["value"] = std::move(bytes);
        specs.push_back(std::move(sj));
    }
    j["compile_specs"] = std::move(specs);
    return j;
}

Json plan(const ExecutionPlan& p)
{
    Json j = Json::object();
    j["name"] = p.name;
    if (p.containerMetaType) {
        Json c = Json::object();
        c["encoded_inp_str"] = p.containerMetaType->encodedInpStr;
        c["encoded_out_str"] = p.containerMetaType->encodedOutStr;
        j["container_meta_type"] = std::move(c);
    }
    Json values = Json::array();
    for (const auto& v : p.values)
        values.push_back(value(v));
    j["values"] = std::move(values);
    j["inputs"] = array(p.inputs);
    j["outputs"] = array(p.outputs);
    Json chains = Json::array();
    for (const auto& c : p.chains)
        chains.push_back(chain(c));
    j["chains"] = std::move(chains);
    Json ops = Json::array();
    for (const auto& op : p.operators)
        ops.push_back(Json::object({ { "name", op.name }, { "overload", op.overload } }));
    j["operators"] = std::move(ops);
    Json dels = Json::array();
    for (const auto& d : p.delegates)
        dels.push_back(delegate(d));
    j["delegates"] = std::move(dels);
    j["non_const_buffer_sizes"] = array(p.nonConstBufferSizes);
    if (p.nonConstBufferDevice) {
        Json devs = Json::array();
        for (const auto& d : *p.nonConstBufferDevice) {
            Json dj = Json::object();
            dj["buffer_idx"] = d.bufferIdx;
            dj["device_type"] = enumName(int(d.deviceType), { "CPU", "CUDA" });
            dj["device_index"] = int(d.deviceIndex);
            devs.push_back(std::move(dj));
        }
        j["non_const_buffer_device"] = std::move(devs);
    }
    return j;
}

Json subsegment(const SubsegmentOffsets& s)
{
    Json j = Json::object();
    j["segment_index"] = s.segmentIndex;
    j["offsets"] = array(s.offsets);
    return j;
}

} // namespace

std::string programToJson(const Program& program, const JsonDumpOptions& options)
{
    Json j = Json::object();
    j["version"] = program.version;
    Json plans = Json::array();
    for (const auto& p : program.executionPlan)
        plans.push_back(plan(p));
    j["execution_plan"] = std::move(plans);
    Json cb = Json::array();
    for (const auto& b : program.constantBuffer)
        cb.push_back(Json::object({ { "storage", bytesSummary(b.storage) } }));
    j["constant_buffer"] = std::move(cb);
    Json bdd = Json::array();
    for (const auto& b : program.backendDelegateData)
        bdd.push_back(Json::object({ { "data", bytesSummary(b.storage) } }));
    j["backend_delegate_data"] = std::move(bdd);
    Json segs = Json::array();
    for (const auto& s : program.segments) {
        Json sj = Json::object();
        sj["offset"] = s.offset;
        sj["size"] = s.size;
        segs.push_back(std::move(sj));
    }
    j["segments"] = std::move(segs);
    if (program.constantSegment)
        j["constant_segment"] = subsegment(*program.constantSegment);
    if (program.mutableDataSegments) {
        Json m = Json::array();
        for (const auto& s : *program.mutableDataSegments)
            m.push_back(subsegment(s));
        j["mutable_data_segments"] = std::move(m);
    }
    if (program.namedData) {
        Json nd = Json::array();
        for (const auto& n : *program.namedData)
            nd.push_back(Json::object({ { "key", n.key }, { "segment_index", n.segmentIndex } }));
        j["named_data"] = std::move(nd);
    }
    std::string out = j.dump(options.indent, ' ', false, nlohmann::json::error_handler_t::replace);
    out.push_back('\n');
    return out;
}

} // namespace pte
