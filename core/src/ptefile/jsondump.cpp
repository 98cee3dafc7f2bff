// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The program as JSON, shaped like `flatc --json --strict-json --defaults-json` output for
// schema/program.fbs. Deviations (documented in jsondump.h): byte payloads are summarized, doubles that
// are not finite are strings, required vectors are always written. Streamed: no JSON tree is built.
#include "pte/jsondump.h"

#include "ptefile/jsonwriter.h"

#include <cmath>

namespace pte {

namespace {

using ptefile::JsonWriter;

class ProgramJson
{
public:
    explicit ProgramJson(JsonWriter& w)
        : m_w(w)
    { }

    void program(const Program& program)
    {
        m_w.beginObject();
        m_w.member("version", program.version);
        m_w.key("execution_plan");
        m_w.beginArray();
        for (const auto& p : program.executionPlan)
            plan(p);
        m_w.endArray();
        m_w.key("constant_buffer");
        m_w.beginArray();
        for (const auto& b : program.constantBuffer) {
            m_w.beginObject();
            m_w.key("storage");
            bytesSummary(b.storage);
            m_w.endObject();
        }
        m_w.endArray();
        m_w.key("backend_delegate_data");
        m_w.beginArray();
        for (const auto& b : program.backendDelegateData) {
            m_w.beginObject();
            m_w.key("data");
            bytesSummary(b.storage);
            m_w.endObject();
        }
        m_w.endArray();
        m_w.key("segments");
        m_w.beginArray();
        for (const auto& s : program.segments) {
            m_w.beginObject();
            m_w.member("offset", s.offset);
            m_w.member("size", s.size);
            m_w.endObject();
        }
        m_w.endArray();
        if (program.constantSegment) {
            m_w.key("constant_segment");
            subsegment(*program.constantSegment);
        }
        if (program.mutableDataSegments) {
            m_w.key("mutable_data_segments");
            m_w.beginArray();
            for (const auto& s : *program.mutableDataSegments)
                subsegment(s);
            m_w.endArray();
        }
        if (program.namedData) {
            m_w.key("named_data");
            m_w.beginArray();
            for (const auto& n : *program.namedData) {
                m_w.beginObject();
                m_w.member("key", n.key);
                m_w.member("segment_index", n.segmentIndex);
                m_w.endObject();
            }
            m_w.endArray();
        }
        m_w.endObject();
    }

private:
    void number(double d)
    {
        if (std::isnan(d))
            m_w.value("nan");
        else if (std::isinf(d))
            m_w.value(d > 0 ? "inf" : "-inf");
        else
            m_w.value(d);
    }

    void bytesSummary(const Bytes& b)
    {
        m_w.beginObject();
        m_w.member("size", std::uint64_t(b.size()));
        m_w.member("sha256", sha256Hex(b.span()));
        m_w.endObject();
    }

    template <typename T> void array(const std::vector<T>& v)
    {
        m_w.beginArray();
        for (const auto& x : v) {
            if constexpr (std::is_signed_v<T>)
                m_w.value(std::int64_t(x));
            else
                m_w.value(std::uint64_t(x));
        }
        m_w.endArray();
    }

    void scalarType(ScalarType t)
    {
        const char* name = scalarTypeSchemaName(t);
        if (name && *name)
            m_w.value(name);
        else
            m_w.value(std::int64_t(static_cast<std::int8_t>(t)));
    }

    void enumName(int value, std::initializer_list<const char*> names)
    {
        if (value >= 0 && std::size_t(value) < names.size())
            m_w.value(*(names.begin() + value));
        else
            m_w.value(std::int64_t(value));
    }

    void tensor(const Tensor& t)
    {
        m_w.beginObject();
        m_w.key("scalar_type");
        scalarType(t.scalarType);
        m_w.member("storage_offset", t.storageOffset);
        m_w.key("sizes");
        array(t.sizes);
        m_w.key("dim_order");
        array(t.dimOrder);
        m_w.member("requires_grad", t.requiresGrad);
        m_w.member("data_buffer_idx", t.dataBufferIdx);
        if (t.allocationInfo) {
            m_w.key("allocation_info");
            m_w.beginObject();
            m_w.member("memory_id", t.allocationInfo->memoryId);
            m_w.member("memory_offset_low", t.allocationInfo->memoryOffsetLow);
            m_w.member("memory_offset_high", t.allocationInfo->memoryOffsetHigh);
            m_w.endObject();
        }
        m_w.member("layout", std::int64_t(t.layout));
        m_w.key("shape_dynamism");
        enumName(int(t.shapeDynamism), { "STATIC", "DYNAMIC_BOUND", "DYNAMIC_UNBOUND" });
        if (t.extraTensorInfo) {
            const auto& x = *t.extraTensorInfo;
            m_w.key("extra_tensor_info");
            m_w.beginObject();
            m_w.member("mutable_data_segments_idx", x.mutableDataSegmentsIdx);
            if (x.fullyQualifiedName)
                m_w.member("fully_qualified_name", *x.fullyQualifiedName);
            m_w.key("location");
            enumName(int(x.location), { "SEGMENT", "EXTERNAL" });
            m_w.key("device_type");
            enumName(int(x.deviceType), { "CPU", "CUDA" });
            m_w.member("device_index", std::int64_t(x.deviceIndex));
            m_w.endObject();
        }
        m_w.endObject();
    }

    void value(const EValue& v)
    {
        m_w.beginObject();
        m_w.key("val_type");
        if (v.rawType <= 11)
            m_w.value(valueKindName(ValueKind(v.rawType)));
        else
            m_w.value(std::int64_t(v.rawType));
        std::visit(
            [&](const auto& x) {
                using T = std::decay_t<decltype(x)>;
                if constexpr (std::is_same_v<T, std::monostate>) {
                    return;
                } else if constexpr (std::is_same_v<T, Tensor>) {
                    m_w.key("val");
                    tensor(x);
                } else {
                    m_w.key("val");
                    m_w.beginObject();
                    if constexpr (std::is_same_v<T, Int>) {
                        m_w.member("int_val", x.intVal);
                    } else if constexpr (std::is_same_v<T, Bool>) {
                        m_w.member("bool_val", x.boolVal);
                    } else if constexpr (std::is_same_v<T, Double>) {
                        m_w.key("double_val");
                        number(x.doubleVal);
                    } else if constexpr (std::is_same_v<T, String>) {
                        m_w.member("string_val", x.stringVal);
                    } else if constexpr (std::is_same_v<T, DoubleList>) {
                        m_w.key("items");
                        m_w.beginArray();
                        for (const auto d : x.items)
                            number(d);
                        m_w.endArray();
                    } else if constexpr (std::is_same_v<T, BoolList>) {
                        m_w.key("items");
                        m_w.beginArray();
                        for (const bool b : x.items)
                            m_w.value(b);
                        m_w.endArray();
                    } else if constexpr (
                        std::is_same_v<T,
                            IntList> || std::is_same_v<T, TensorList> || std::is_same_v<T, OptionalTensorList>) {
                        m_w.key("items");
                        array(x.items);
                    }
                    m_w.endObject();
                }
            },
            v.val);
        m_w.endObject();
    }

    void instruction(const Instruction& in)
    {
        m_w.beginObject();
        m_w.key("instr_args_type");
        if (in.rawType <= 5)
            m_w.value(instructionKindName(InstructionKind(in.rawType)));
        else
            m_w.value(std::int64_t(in.rawType));
        std::visit(
            [&](const auto& x) {
                using T = std::decay_t<decltype(x)>;
                if constexpr (std::is_same_v<T, std::monostate>) {
                    return;
                } else {
                    m_w.key("instr_args");
                    m_w.beginObject();
                    if constexpr (std::is_same_v<T, KernelCall>) {
                        m_w.member("op_index", x.opIndex);
                        m_w.key("args");
                        array(x.args);
                    } else if constexpr (std::is_same_v<T, DelegateCall>) {
                        m_w.member("delegate_index", x.delegateIndex);
                        m_w.key("args");
                        array(x.args);
                    } else if constexpr (std::is_same_v<T, MoveCall>) {
                        m_w.member("move_from", x.moveFrom);
                        m_w.member("move_to", x.moveTo);
                    } else if constexpr (std::is_same_v<T, JumpFalseCall>) {
                        m_w.member("cond_value_index", x.condValueIndex);
                        m_w.member("destination_instruction", x.destinationInstruction);
                    } else if constexpr (std::is_same_v<T, FreeCall>) {
                        m_w.member("value_index", x.valueIndex);
                    }
                    m_w.endObject();
                }
            },
            in.args);
        m_w.endObject();
    }

    void chain(const Chain& c)
    {
        m_w.beginObject();
        m_w.key("inputs");
        array(c.inputs);
        m_w.key("outputs");
        array(c.outputs);
        m_w.key("instructions");
        m_w.beginArray();
        for (const auto& in : c.instructions)
            instruction(in);
        m_w.endArray();
        if (c.stacktrace) {
            m_w.key("stacktrace");
            m_w.beginArray();
            for (const auto& fl : *c.stacktrace) {
                m_w.beginObject();
                m_w.key("items");
                m_w.beginArray();
                for (const auto& f : fl.items) {
                    m_w.beginObject();
                    if (f.filename)
                        m_w.member("filename", *f.filename);
                    m_w.member("lineno", f.lineno);
                    if (f.name)
                        m_w.member("name", *f.name);
                    if (f.context)
                        m_w.member("context", *f.context);
                    m_w.endObject();
                }
                m_w.endArray();
                m_w.endObject();
            }
            m_w.endArray();
        }
        m_w.endObject();
    }

    void delegate(const BackendDelegate& d)
    {
        m_w.beginObject();
        m_w.member("id", d.id);
        m_w.key("processed");
        m_w.beginObject();
        m_w.key("location");
        enumName(int(d.processed.location), { "INLINE", "SEGMENT" });
        m_w.member("index", d.processed.index);
        m_w.endObject();
        m_w.key("compile_specs");
        m_w.beginArray();
        for (const auto& s : d.compileSpecs) {
            m_w.beginObject();
            m_w.member("key", s.key);
            m_w.key("value");
            m_w.beginArray();
            for (const auto b : s.value.span())
                m_w.value(std::uint64_t(b));
            m_w.endArray();
            m_w.endObject();
        }
        m_w.endArray();
        m_w.endObject();
    }

    void plan(const ExecutionPlan& p)
    {
        m_w.beginObject();
        m_w.member("name", p.name);
        if (p.containerMetaType) {
            m_w.key("container_meta_type");
            m_w.beginObject();
            m_w.member("encoded_inp_str", p.containerMetaType->encodedInpStr);
            m_w.member("encoded_out_str", p.containerMetaType->encodedOutStr);
            m_w.endObject();
        }
        m_w.key("values");
        m_w.beginArray();
        for (const auto& v : p.values)
            value(v);
        m_w.endArray();
        m_w.key("inputs");
        array(p.inputs);
        m_w.key("outputs");
        array(p.outputs);
        m_w.key("chains");
        m_w.beginArray();
        for (const auto& c : p.chains)
            chain(c);
        m_w.endArray();
        m_w.key("operators");
        m_w.beginArray();
        for (const auto& op : p.operators) {
            m_w.beginObject();
            m_w.member("name", op.name);
            m_w.member("overload", op.overload);
            m_w.endObject();
        }
        m_w.endArray();
        m_w.key("delegates");
        m_w.beginArray();
        for (const auto& d : p.delegates)
            delegate(d);
        m_w.endArray();
        m_w.key("non_const_buffer_sizes");
        array(p.nonConstBufferSizes);
        if (p.nonConstBufferDevice) {
            m_w.key("non_const_buffer_device");
            m_w.beginArray();
            for (const auto& d : *p.nonConstBufferDevice) {
                m_w.beginObject();
                m_w.member("buffer_idx", d.bufferIdx);
                m_w.key("device_type");
                enumName(int(d.deviceType), { "CPU", "CUDA" });
                m_w.member("device_index", std::int64_t(d.deviceIndex));
                m_w.endObject();
            }
            m_w.endArray();
        }
        m_w.endObject();
    }

    void subsegment(const SubsegmentOffsets& s)
    {
        m_w.beginObject();
        m_w.member("segment_index", s.segmentIndex);
        m_w.key("offsets");
        array(s.offsets);
        m_w.endObject();
    }

    JsonWriter& m_w;
};

} // namespace

void writeProgramJson(
    const Program& program, const std::function<void(std::string_view)>& sink, const JsonDumpOptions& options)
{
    JsonWriter w(sink, options.indent);
    ProgramJson(w).program(program);
    w.finish();
}

std::string programToJson(const Program& program, const JsonDumpOptions& options)
{
    std::string out;
    writeProgramJson(
        program, [&out](std::string_view chunk) { out.append(chunk); }, options);
    return out;
}

} // namespace pte
