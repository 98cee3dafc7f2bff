// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The reference interpreter of decoded XNNPACK graphs (pte::DelegatePayload): the values of a delegate call's
// outputs and of every inner node, from XNNPACK's documented operator semantics.
#pragma once

#include "pte/delegatepayload.h"
#include "pte/referenceinterpreter.h"
#include "pte/result.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace pte::interp {

/** A value of an XNNPACK graph while it runs: dims as the graph lays them out (NHWC inside convolutions), elements
 *  row-major. A float tensor holds `f`; a quantized one its integers in `q` (with the value's QuantParams). */
struct XnnTensor
{
    std::vector<std::size_t> dims;
    std::vector<float> f;
    std::vector<std::int32_t> q;
    bool quantized = false;
    const QuantParams* quant = nullptr; ///< the value's parameters (quantized tensors)

    [[nodiscard]] std::size_t numel() const noexcept
    {
        std::size_t n = 1;
        for (const auto d : dims)
            n *= d;
        return n;
    }
    /** Element `i` as a real number (a quantized tensor dequantized with its per-tensor scale). */
    [[nodiscard]] double real(std::size_t i) const;
};

/** Why the interpreter cannot run node `node` of `payload` ("Hardswish with flags 0x4"), or nullopt. Looks at the
 *  node's kind, its parameters and its values' dtypes only (no data). */
[[nodiscard]] std::optional<std::string> unsupportedXnnpackNode(const DelegatePayload& payload, const InnerNode& node);

/** Called after each node with its index and its first output. */
using XnnpackNodeObserver = std::function<void(std::size_t node, const XnnTensor& output)>;

/**
 * Runs a decoded XNNPACK graph as the runtime does for one DelegateCall: `args` are the call's arguments (inputs then
 * outputs, each graph value with an external id bound to args[external id]); returns the values of the graph's
 * outputs in the order of the call's last arguments. Errors: Unsupported naming the inner node index and kind for
 * a node the interpreter cannot run; InvalidInput for a graph or arguments that do not fit together.
 */
[[nodiscard]] Result<std::vector<HostTensor>> runXnnpackGraph(
    const DelegatePayload& payload, const std::vector<HostTensor>& args, const XnnpackNodeObserver& observer = {});

/** The graph's values while it runs, by value id. */
using XnnValues = std::unordered_map<std::uint32_t, XnnTensor>;

/** Evaluates one node (xnnpacknodes.cpp): reads its inputs from `values`, writes its outputs there. Errors as
 *  runXnnpackGraph's, the message without the node's name (the caller adds it). */
[[nodiscard]] Result<void> evalXnnpackNode(const DelegatePayload& payload, const InnerNode& node, XnnValues& values);

} // namespace pte::interp
