// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// programDifference(): the check that a written program decodes to what was written.
#include "pte/programequality.h"

#include <cstring>
#include <sstream>

namespace pte {

namespace {

class Differ
{
public:
    explicit Differ(bool offsets)
        : m_offsets(offsets)
    { }
    std::optional<std::string> result;

    template <typename T> bool same(const T& a, const T& b, const std::string& path)
    {
        if (result)
            return false;
        if (a == b)
            return true;
        std::ostringstream os;
        os << path << ": " << show(a) << " != " << show(b);
        result = os.str();
        return false;
    }
    bool sameDouble(double a, double b, const std::string& path)
    {
        if (std::memcmp(&a, &b, sizeof a) == 0)
            return true;
        return same(a, b, path);
    }
    bool sameBytes(const Bytes& a, const Bytes& b, const std::string& path)
    {
        if (result)
            return false;
        if (a.contentEquals(b))
            return true;
        result = path + ": " + std::to_string(a.size()) + " bytes differ from " + std::to_string(b.size()) + " bytes";
        return false;
    }
    template <typename T, typename F>
    bool list(const std::vector<T>& a, const std::vector<T>& b, const std::string& path, F&& each)
    {
        if (!same(a.size(), b.size(), path + ".size()"))
            return false;
        for (std::size_t i = 0; i < a.size() && !result; ++i)
            each(a[i], b[i], path + "[" + std::to_string(i) + "]");
        return !result;
    }
    /** std::optional or Boxed members. */
    template <typename Optional, typename F>
    bool opt(const Optional& a, const Optional& b, const std::string& path, F&& each)
    {
        if (!same(a.has_value(), b.has_value(), path + " present"))
            return false;
        if (a)
            each(*a, *b, path);
        return !result;
    }
    template <typename T> bool values(const std::vector<T>& a, const std::vector<T>& b, const std::string& path)
    {
        return list(a, b, path, [&](const T& x, const T& y, const std::string& p) { same(x, y, p); });
    }

    void tensor(const Tensor& a, const Tensor& b, const std::string& p)
    {
        same(int(a.scalarType), int(b.scalarType), p + ".scalar_type");
        same(a.storageOffset, b.storageOffset, p + ".storage_offset");
        values(a.sizes, b.sizes, p + ".sizes");
        values(a.dimOrder, b.dimOrder, p + ".dim_order");
        same(a.requiresGrad, b.requiresGrad, p + ".requires_grad");
        same(a.dataBufferIdx, b.dataBufferIdx, p + ".data_buffer_idx");
        opt(a.allocationInfo, b.allocationInfo, p + ".allocation_info",
            [&](const AllocationDetails& x, const AllocationDetails& y, const std::string& q) {
                same(x.memoryId, y.memoryId, q + ".memory_id");
                same(x.memoryOffsetLow, y.memoryOffsetLow, q + ".memory_offset_low");
                same(x.memoryOffsetHigh, y.memoryOffsetHigh, q + ".memory_offset_high");
            });
        same(a.layout, b.layout, p + ".layout");
        same(int(a.shapeDynamism), int(b.shapeDynamism), p + ".shape_dynamism");
        opt(a.extraTensorInfo, b.extraTensorInfo, p + ".extra_tensor_info",
            [&](const ExtraTensorInfo& x, const ExtraTensorInfo& y, const std::string& q) {
                same(x.mutableDataSegmentsIdx, y.mutableDataSegmentsIdx, q + ".mutable_data_segments_idx");
                same(x.fullyQualifiedName, y.fullyQualifiedName, q + ".fully_qualified_name");
                same(int(x.location), int(y.location), q + ".location");
                same(int(x.deviceType), int(y.deviceType), q + ".device_type");
                same(x.deviceIndex, y.deviceIndex, q + ".device_index");
            });
    }

    void value(const EValue& a, const EValue& b, const std::string& p)
    {
        if (!same(a.val.index(), b.val.index(), p + ".val_type") || !same(a.rawType, b.rawType, p + ".raw_type"))
            return;
        const std::string q = p + ".val";
        if (const auto* x = std::get_if<Int>(&a.val))
            same(x->intVal, std::get<Int>(b.val).intVal, q + ".int_val");
        else if (const auto* xb = std::get_if<Bool>(&a.val))
            same(xb->boolVal, std::get<Bool>(b.val).boolVal, q + ".bool_val");
        else if (const auto* xd = std::get_if<Double>(&a.val))
            sameDouble(xd->doubleVal, std::get<Double>(b.val).doubleVal, q + ".double_val");
        else if (const auto* xt = std::get_if<Tensor>(&a.val))
            tensor(*xt, std::get<Tensor>(b.val), q);
        else if (const auto* xs = std::get_if<String>(&a.val))
            same(xs->stringVal, std::get<String>(b.val).stringVal, q + ".string_val");
        else if (const auto* xi = std::get_if<IntList>(&a.val))
            values(xi->items, std::get<IntList>(b.val).items, q + ".items");
        else if (const auto* xdl = std::get_if<DoubleList>(&a.val))
            list(xdl->items, std::get<DoubleList>(b.val).items, q + ".items",
                [&](double u, double v, const std::string& r) { sameDouble(u, v, r); });
        else if (const auto* xbl = std::get_if<BoolList>(&a.val))
            same(xbl->items, std::get<BoolList>(b.val).items, q + ".items");
        else if (const auto* xtl = std::get_if<TensorList>(&a.val))
            values(xtl->items, std::get<TensorList>(b.val).items, q + ".items");
        else if (const auto* xo = std::get_if<OptionalTensorList>(&a.val))
            values(xo->items, std::get<OptionalTensorList>(b.val).items, q + ".items");
    }

    void instruction(const Instruction& a, const Instruction& b, const std::string& p)
    {
        if (!same(a.args.index(), b.args.index(), p + ".instr_args_type")
            || !same(a.rawType, b.rawType, p + ".raw_type"))
            return;
        const std::string q = p + ".instr_args";
        if (const auto* k = std::get_if<KernelCall>(&a.args)) {
            same(k->opIndex, std::get<KernelCall>(b.args).opIndex, q + ".op_index");
            values(k->args, std::get<KernelCall>(b.args).args, q + ".args");
        } else if (const auto* d = std::get_if<DelegateCall>(&a.args)) {
            same(d->delegateIndex, std::get<DelegateCall>(b.args).delegateIndex, q + ".delegate_index");
            values(d->args, std::get<DelegateCall>(b.args).args, q + ".args");
        } else if (const auto* m = std::get_if<MoveCall>(&a.args)) {
            same(m->moveFrom, std::get<MoveCall>(b.args).moveFrom, q + ".move_from");
            same(m->moveTo, std::get<MoveCall>(b.args).moveTo, q + ".move_to");
        } else if (const auto* j = std::get_if<JumpFalseCall>(&a.args)) {
            same(j->condValueIndex, std::get<JumpFalseCall>(b.args).condValueIndex, q + ".cond_value_index");
            same(j->destinationInstruction, std::get<JumpFalseCall>(b.args).destinationInstruction,
                q + ".destination_instruction");
        } else if (const auto* f = std::get_if<FreeCall>(&a.args)) {
            same(f->valueIndex, std::get<FreeCall>(b.args).valueIndex, q + ".value_index");
        }
    }

    void chain(const Chain& a, const Chain& b, const std::string& p)
    {
        values(a.inputs, b.inputs, p + ".inputs");
        values(a.outputs, b.outputs, p + ".outputs");
        list(a.instructions, b.instructions, p + ".instructions",
            [&](const Instruction& x, const Instruction& y, const std::string& q) { instruction(x, y, q); });
        opt(a.stacktrace, b.stacktrace, p + ".stacktrace",
            [&](const std::vector<FrameList>& x, const std::vector<FrameList>& y, const std::string& q) {
                list(x, y, q, [&](const FrameList& u, const FrameList& v, const std::string& r) {
                    list(u.items, v.items, r + ".items", [&](const Frame& f, const Frame& g, const std::string& s) {
                        same(f.filename, g.filename, s + ".filename");
                        same(f.lineno, g.lineno, s + ".lineno");
                        same(f.name, g.name, s + ".name");
                        same(f.context, g.context, s + ".context");
                    });
                });
            });
    }

    void plan(const ExecutionPlan& a, const ExecutionPlan& b, const std::string& p)
    {
        same(a.name, b.name, p + ".name");
        opt(a.containerMetaType, b.containerMetaType, p + ".container_meta_type",
            [&](const ContainerMetadata& x, const ContainerMetadata& y, const std::string& q) {
                same(x.encodedInpStr, y.encodedInpStr, q + ".encoded_inp_str");
                same(x.encodedOutStr, y.encodedOutStr, q + ".encoded_out_str");
            });
        list(a.values, b.values, p + ".values",
            [&](const EValue& x, const EValue& y, const std::string& q) { value(x, y, q); });
        values(a.inputs, b.inputs, p + ".inputs");
        values(a.outputs, b.outputs, p + ".outputs");
        list(a.chains, b.chains, p + ".chains",
            [&](const Chain& x, const Chain& y, const std::string& q) { chain(x, y, q); });
        list(a.operators, b.operators, p + ".operators",
            [&](const Operator& x, const Operator& y, const std::string& q) {
                same(x.name, y.name, q + ".name");
                same(x.overload, y.overload, q + ".overload");
            });
        list(a.delegates, b.delegates, p + ".delegates",
            [&](const BackendDelegate& x, const BackendDelegate& y, const std::string& q) {
                same(x.id, y.id, q + ".id");
                same(int(x.processed.location), int(y.processed.location), q + ".processed.location");
                same(x.processed.index, y.processed.index, q + ".processed.index");
                list(x.compileSpecs, y.compileSpecs, q + ".compile_specs",
                    [&](const CompileSpec& u, const CompileSpec& v, const std::string& r) {
                        same(u.key, v.key, r + ".key");
                        sameBytes(u.value, v.value, r + ".value");
                    });
            });
        values(a.nonConstBufferSizes, b.nonConstBufferSizes, p + ".non_const_buffer_sizes");
        opt(a.nonConstBufferDevice, b.nonConstBufferDevice, p + ".non_const_buffer_device",
            [&](const std::vector<NonConstBufferDevice>& x, const std::vector<NonConstBufferDevice>& y,
                const std::string& q) {
                list(x, y, q, [&](const NonConstBufferDevice& u, const NonConstBufferDevice& v, const std::string& r) {
                    same(u.bufferIdx, v.bufferIdx, r + ".buffer_idx");
                    same(int(u.deviceType), int(v.deviceType), r + ".device_type");
                    same(u.deviceIndex, v.deviceIndex, r + ".device_index");
                });
            });
    }

    void subsegment(const SubsegmentOffsets& a, const SubsegmentOffsets& b, const std::string& p)
    {
        same(a.segmentIndex, b.segmentIndex, p + ".segment_index");
        values(a.offsets, b.offsets, p + ".offsets");
    }

    void program(const Program& a, const Program& b)
    {
        same(a.version, b.version, "version");
        list(a.executionPlan, b.executionPlan, "execution_plan",
            [&](const ExecutionPlan& x, const ExecutionPlan& y, const std::string& q) { plan(x, y, q); });
        auto buffers = [&](const Buffer& x, const Buffer& y, const std::string& q) {
            sameBytes(x.storage, y.storage, q + ".storage");
        };
        list(a.constantBuffer, b.constantBuffer, "constant_buffer", buffers);
        list(a.backendDelegateData, b.backendDelegateData, "backend_delegate_data", buffers);
        list(a.segments, b.segments, "segments", [&](const DataSegment& x, const DataSegment& y, const std::string& q) {
            if (m_offsets)
                same(x.offset, y.offset, q + ".offset");
            same(x.size, y.size, q + ".size");
            sameBytes(x.range(0, x.contentSize()), y.range(0, y.contentSize()), q + ".data");
        });
        opt(a.constantSegment, b.constantSegment, "constant_segment",
            [&](const SubsegmentOffsets& x, const SubsegmentOffsets& y, const std::string& q) { subsegment(x, y, q); });
        opt(a.mutableDataSegments, b.mutableDataSegments, "mutable_data_segments",
            [&](const std::vector<SubsegmentOffsets>& x, const std::vector<SubsegmentOffsets>& y,
                const std::string& q) {
                list(x, y, q, [&](const SubsegmentOffsets& u, const SubsegmentOffsets& v, const std::string& r) {
                    subsegment(u, v, r);
                });
            });
        opt(a.namedData, b.namedData, "named_data",
            [&](const std::vector<NamedData>& x, const std::vector<NamedData>& y, const std::string& q) {
                list(x, y, q, [&](const NamedData& u, const NamedData& v, const std::string& r) {
                    same(u.key, v.key, r + ".key");
                    same(u.segmentIndex, v.segmentIndex, r + ".segment_index");
                });
            });
    }

private:
    bool m_offsets;

    template <typename T> static std::string show(const T& v)
    {
        if constexpr (std::is_same_v<T, std::string>)
            return "'" + v + "'";
        else if constexpr (std::is_same_v<T, std::optional<std::string>>)
            return v ? "'" + *v + "'" : std::string("null");
        else if constexpr (std::is_same_v<T, bool>)
            return v ? "true" : "false";
        else if constexpr (std::is_same_v<T, std::vector<bool>>)
            return std::to_string(v.size()) + " bools";
        else if constexpr (std::is_arithmetic_v<T>) {
            std::ostringstream os;
            os << +v;
            return os.str();
        } else
            return "?";
    }
};

} // namespace

std::optional<std::string> programDifference(const Program& a, const Program& b, bool compareSegmentOffsets)
{
    Differ d(compareSegmentOffsets);
    d.program(a, b);
    return d.result;
}

} // namespace pte
