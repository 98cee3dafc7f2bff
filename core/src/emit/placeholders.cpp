// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/lowering_p.h"
#include "pte/tensorshape.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace pte::emitcore {

Result<void> Lowering::placeholders()
{
    const auto& g = m_ep.graph;
    const auto& specs = m_ep.signature.inputSpecs;
    if (specs.size() != g.inputs.size())
        return fail(ErrorCode::InvalidInput,
            "method '" + m_method + "': the graph has " + std::to_string(g.inputs.size())
                + " inputs but the signature lists " + std::to_string(specs.size()));
    std::set<std::string> mutatedBuffers;
    std::set<std::string> mutatedInputs;
    for (const auto& o : m_ep.signature.outputSpecs) {
        if (o.kind == OutputKind::BufferMutation || o.kind == OutputKind::ParameterMutation)
            mutatedBuffers.insert(o.target);
        if (o.kind == OutputKind::GradientToParameter)
            m_trainable.insert(o.target);
    }
    std::vector<std::string> plannedWithoutState; // mutable buffers whose dump bytes are not stored
    std::string plannedWithoutStateNode; // the first one's placeholder, the warning's location
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const auto& spec = specs[i];
        const auto& arg = g.inputs[i];
        const std::string where = "input " + std::to_string(i);
        LPlaceholder ph;
        if (spec.kind == InputKind::Token)
            continue;
        if (spec.kind == InputKind::CustomObj)
            return fail(ErrorCode::Unsupported,
                "method '" + m_method + "': Custom class '" + spec.target + "' is not supported in EXIR");
        if (spec.kind == InputKind::ConstantInput) {
            PTE_TRY(ph.literal, convertUntyped(spec.constantValue, where));
            ph.kind = LPlaceholder::Kind::Literal;
            ph.userInput = true;
            m_out.placeholders.push_back(std::move(ph));
            continue;
        }
        if (spec.kind == InputKind::UserInput) {
            ph.userInput = true;
            if (arg.kind == ArgKind::Tensor) {
                if (arg.names.empty() || arg.names[0].empty())
                    return fail(ErrorCode::InvalidInput, "method '" + m_method + "': " + where + " has no name");
                PTE_TRY(ph.ref, newTensorFromName(arg.names[0], where));
                m_placeholderRef[arg.names[0]] = ph.ref;
            } else if (arg.kind == ArgKind::SymInt || arg.kind == ArgKind::SymBool || arg.kind == ArgKind::SymFloat) {
                const std::string nm =
                    !arg.names.empty() ? arg.names[0] : (arg.syms.empty() ? std::string() : arg.syms[0].expr);
                ph.ref = newSym(nm);
                m_out.values[std::size_t(ph.ref)].symIsNull = true;
            } else {
                PTE_TRY(ph.literal, convertUntyped(arg, where));
                ph.kind = LPlaceholder::Kind::Literal;
            }
            m_out.placeholders.push_back(std::move(ph));
            continue;
        }
        // Parameters, buffers, lifted constants
        const std::string name = arg.names.empty() ? std::string() : arg.names[0];
        const std::string& fqn = spec.target;
        const auto w = m_ep.weights.find(fqn);
        const bool mutableBuffer = mutatedBuffers.count(fqn) > 0 || m_inPlaceRoots.count(name) > 0;
        const bool trainable = spec.kind == InputKind::Parameter && m_trainable.count(fqn) > 0;
        const TensorMeta* meta = w != m_ep.weights.end() ? &w->second.meta : findMeta(name);
        if (!meta)
            return fail(ErrorCode::InvalidInput,
                "method '" + m_method + "': placeholder '" + name + "' (" + fqn + ") has no tensor metadata");
        PTE_TRY(ph.ref, newTensor(name, *meta, where));
        define(name, ph.ref);
        m_placeholderRef[name] = ph.ref;
        auto& v = m_out.values[std::size_t(ph.ref)];
        v.fqn = fqn;
        if (v.dynamism != ShapeDynamism::Static)
            return fail(ErrorCode::Unsupported, "method '" + m_method + "': weight '" + fqn + "' has a dynamic shape");
        const auto nbytes = v.nbytes();
        Bytes data;
        if (w != m_ep.weights.end()) {
            const auto& wt = w->second;
            // Bytes are stored in dim order; non-dense or other permutations are gathered contiguous.
            std::vector<std::int64_t> strides;
            bool concrete = true;
            for (const auto& s : wt.meta.strides) {
                if (!s.value)
                    concrete = false;
                else
                    strides.push_back(*s.value);
            }
            const auto order = v.dimOrder;
            std::vector<std::int64_t> denseStrides(order.size());
            std::int64_t st = 1;
            for (std::size_t k = order.size(); k-- > 0;) {
                denseStrides[order[k]] = st;
                st *= std::max<std::int32_t>(v.sizes[order[k]], 1);
            }
            bool dense = !concrete || strides == denseStrides;
            for (std::size_t d = 0; d < v.sizes.size(); ++d)
                if (v.sizes[d] == 1 && d < strides.size())
                    strides[d] = denseStrides[d]; // size-1 dims: any stride
            dense = dense || strides == denseStrides;
            bool keepOrder = true;
            for (std::size_t d = 0; d < order.size(); ++d)
                keepOrder = keepOrder && order[d] == d;
            if (dense && (keepOrder || isChannelsLastDimOrder(order))) {
                if (wt.data.size() < nbytes)
                    return fail(ErrorCode::InvalidInput,
                        "method '" + m_method + "': Tensor spec has buffer of size " + std::to_string(wt.data.size())
                            + ", but expected nbytes of " + std::to_string(nbytes) + " (weight '" + fqn + "' from "
                            + wt.source + ")");
                data = wt.data.slice(0, nbytes);
            } else {
                // Gather into a contiguous copy.
                const auto es = elementSize(v.dtype);
                std::vector<std::uint8_t> out(nbytes);
                const auto numel = nbytes / std::max<std::size_t>(es, 1);
                std::vector<std::int64_t> idx(v.sizes.size(), 0);
                for (std::uint64_t e = 0; e < numel; ++e) {
                    std::int64_t off = 0;
                    for (std::size_t d = 0; d < idx.size(); ++d)
                        off += idx[d] * strides[d];
                    const auto byteOff = std::uint64_t(off) * es;
                    if (off < 0 || byteOff + es > wt.data.size())
                        return fail(ErrorCode::InvalidInput,
                            "method '" + m_method + "': weight '" + fqn + "' strides reach outside its storage");
                    std::memcpy(out.data() + e * es, wt.data.data() + byteOff, es);
                    for (std::size_t d = idx.size(); d-- > 0;) {
                        if (++idx[d] < v.sizes[d])
                            break;
                        idx[d] = 0;
                    }
                }
                data = Bytes::fromVector(std::move(out));
                v.dimOrder.resize(v.sizes.size());
                std::iota(v.dimOrder.begin(), v.dimOrder.end(), std::uint8_t(0));
            }
        } else if (!mutableBuffer || m_options.initialiseMutableBuffers) {
            if (m_options.zeroFillMissingWeights) {
                warn("weight '" + fqn + "' is missing from the dump; emitted as zeros", {}, name);
                data = Bytes::fromVector(std::vector<std::uint8_t>(nbytes, 0));
            } else if (!mutableBuffer) {
                Error e = makeError(ErrorCode::InvalidInput,
                    "method '" + m_method + "': Could not find buffer with fqn '" + fqn + "' in the dump's weights ("
                        + m_ep.source + ")");
                e.location.node = name;
                return fail(std::move(e));
            } else {
                warn("mutable buffer '" + fqn
                        + "' has no bytes in the dump: it is memory planned without an initial state",
                    {}, name);
            }
        }
        if (mutableBuffer) {
            v.storage = LValue::Storage::Planned;
            v.mutableBuffer = true;
            if (m_options.initialiseMutableBuffers && nbytes > 0 && data.size() == nbytes) {
                // ExecuTorch's et_init_buffer (InitializedMutableBufferPass): planned, and its initial state stored
                // in the mutable data segment, which the runtime copies into planned memory at load.
                v.initialised = true;
                v.data = data;
            } else if (w != m_ep.weights.end() && !m_options.initialiseMutableBuffers) {
                if (plannedWithoutState.empty())
                    plannedWithoutStateNode = name;
                plannedWithoutState.push_back(fqn);
            }
        } else if (trainable) {
            v.storage = LValue::Storage::Planned;
            v.mutableBuffer = true;
            v.initialised = true;
            v.data = data;
        } else {
            v.storage = LValue::Storage::Constant;
            v.data = data;
        }
        m_out.placeholders.push_back(std::move(ph));
    }
    warnPlannedWithoutState(plannedWithoutState, plannedWithoutStateNode);
    return {};
}

void Lowering::warnPlannedWithoutState(const std::vector<std::string>& fqns, const std::string& firstNode)
{
    // One warning for all of them: how many, the first few by name, and the option as the user sees it; its location
    // is the first one's placeholder.
    if (fqns.empty())
        return;
    constexpr std::size_t shown = 4;
    std::string which;
    if (fqns.size() == 1) {
        which = "mutable buffer '" + fqns[0] + "' is";
    } else {
        which = std::to_string(fqns.size()) + " mutable buffers (buffer";
        for (std::size_t i = 0; i < fqns.size() && i < shown; ++i)
            which += (i == 0 ? " '" : ", '") + fqns[i] + "'";
        if (fqns.size() > shown)
            which += " and " + std::to_string(fqns.size() - shown) + " more";
        which += ") are";
    }
    warn(which
            + " memory planned and the dump's initial state is not stored in the program: the first run starts from "
              "undefined memory (ExecuTorch's default, without et_init_buffer). To store it, tick \"Store mutable "
              "buffers' initial state\" in the Emit dialog or pass --init-mutable-buffers to ptelens-cli emit.",
        {}, firstNode);
}

} // namespace pte::emitcore
