// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/delegateinterpreter.h"

#include "interp/xnnpackgraph.h"
#include "pte/delegatepayload.h"

#include <map>
#include <memory>

namespace pte {

ReferenceInterpreter::DelegateHandler referenceDelegateHandler(
    const Program& program, const std::string& method, const ExternalData* external, InnerNodeObserver observer)
{
    const ExecutionPlan* plan = program.method(method);
    if (!plan || plan->delegates.empty())
        return {};
    const PayloadDataSources sources { &program, external, nullptr };
    auto payloads = std::make_shared<std::map<std::size_t, std::shared_ptr<const DelegatePayload>>>();
    for (auto& d : decodeProgramDelegates(program, sources, "method '" + method + "'"))
        if (d.methodName == method)
            (*payloads)[d.delegateIndex] = std::move(d.payload);
    std::vector<std::string> backends;
    for (const auto& d : plan->delegates)
        backends.push_back(d.id);
    return [payloads, backends, observer](
               std::size_t index, const std::vector<HostTensor>& args) -> Result<std::vector<HostTensor>> {
        const std::string name = index < backends.size() ? backends[index] : std::string("?");
        const auto found = payloads->find(index);
        // The runtime dispatches on the backend id: XNNPACK bytes under another id are that backend's business.
        if (name != "XnnpackBackend" || found == payloads->end() || !found->second
            || found->second->kind != PayloadKind::XnnpackGraph)
            return fail(ErrorCode::Unsupported,
                name + ": the reference interpreter runs XNNPACK graphs only, not this backend's delegates");
        const DelegatePayload& payload = *found->second;
        if (!payload.graphDecoded)
            return fail(ErrorCode::Unsupported,
                name + ": its XNNPACK payload did not decode, the reference interpreter cannot run it");
        interp::XnnpackNodeObserver nodes;
        if (observer)
            nodes = [&](std::size_t node, const interp::XnnTensor& t) {
                HostTensor h;
                h.sizes.assign(t.dims.begin(), t.dims.end());
                h.values.reserve(t.numel());
                for (std::size_t i = 0; i < t.numel(); ++i)
                    h.values.push_back(t.real(i));
                observer(index, std::uint32_t(node), h);
            };
        auto out = interp::runXnnpackGraph(payload, args, nodes);
        if (!out)
            return fail(out.error().code, name + ": " + out.error().message);
        return out;
    };
}

} // namespace pte
