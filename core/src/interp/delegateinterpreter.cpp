// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/delegateinterpreter.h"

#include "interp/xnnpackgraph.h"
#include "pte/delegatepayload.h"

#include <map>
#include <memory>

namespace pte {

ReferenceInterpreter::DelegateHandler referenceDelegateHandler(
    const Program& program, const std::string& method, const ExternalData* external)
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
    return [payloads, backends](
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
        auto out = interp::runXnnpackGraph(payload, args);
        if (!out)
            return fail(out.error().code, name + ": " + out.error().message);
        return out;
    };
}

} // namespace pte
