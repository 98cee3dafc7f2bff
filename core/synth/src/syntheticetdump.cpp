// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/syntheticetdump.h"

#include "pte/etdumpjoin.h"

#include <unordered_map>

namespace pte {

Result<EtDump> makeSyntheticEtdump(const Program& program, const SyntheticEtdumpOptions& options)
{
    const ExecutionPlan* plan = options.method.empty()
        ? (program.executionPlan.empty() ? nullptr : &program.executionPlan.front())
        : program.method(options.method);
    if (!plan)
        return fail(ErrorCode::InvalidInput,
            "the program has no method "
                + (options.method.empty() ? std::string("at all") : "'" + options.method + "'"));
    EtDump dump;
    std::unordered_map<std::string, std::uint32_t> ids;
    auto intern = [&](const std::string& s) {
        const auto [it, inserted] = ids.try_emplace(s, std::uint32_t(dump.strings.size()));
        if (inserted)
            dump.strings.push_back(s);
        return it->second;
    };
    std::vector<std::uint32_t> kernelNames;
    for (const auto& op : plan->operators)
        kernelNames.push_back(intern(kernelEventName(op)));
    const std::uint32_t scopeNames[] = { kEtdumpNoString, intern("OPERATOR_CALL"), intern("DELEGATE_CALL"),
        intern("MOVE_CALL"), intern("JF_CALL"), intern("FREE_CALL") };
    std::uint64_t tick = options.startTick;
    auto event = [&](std::uint32_t name, std::int64_t chain, std::int32_t instr, std::uint64_t start,
                     std::uint64_t end) {
        EtdumpEvent e;
        e.kind = EtdumpEventKind::Profile;
        e.name = name;
        e.chainIndex = chain;
        e.instructionId = instr;
        e.startTime = start;
        e.endTime = end;
        dump.events.push_back(e);
    };
    auto block = [&](const std::string& name) {
        EtdumpRun run;
        run.name = name;
        run.hasEvents = true;
        run.firstEvent = std::uint32_t(dump.events.size());
        dump.runs.push_back(run);
    };
    auto close = [&] { dump.runs.back().eventCount = std::uint32_t(dump.events.size()) - dump.runs.back().firstEvent; };
    block("Default");
    event(intern("Method::init"), -1, 0, tick + 5, tick + 900);
    event(intern("Program::load_method"), -1, 0, tick, tick + 1000);
    tick += 1000;
    close();
    for (std::uint32_t r = 0; r < options.runs; ++r) {
        block("Execute");
        const std::uint64_t runStart = tick;
        for (std::size_t c = 0; c < plan->chains.size(); ++c) {
            const auto& chain = plan->chains[c];
            for (std::size_t i = 0; i < chain.instructions.size(); ++i) {
                const auto& in = chain.instructions[i];
                const std::uint64_t start = tick + 2;
                // Durations vary by instruction and run, deterministically.
                const std::uint64_t length = 100 + (i * 37 + r * 11) % 400;
                if (const auto* k = std::get_if<KernelCall>(&in.args);
                    k && options.kernelEvents && k->opIndex >= 0 && std::size_t(k->opIndex) < kernelNames.size())
                    event(kernelNames[std::size_t(k->opIndex)], std::int64_t(c), std::int32_t(i), start + 3,
                        start + length - 3);
                event(scopeNames[std::size_t(in.kind())], std::int64_t(c), std::int32_t(i), start, start + length);
                tick = start + length;
            }
        }
        tick += 10;
        event(intern("Method::execute"), -1, 0, runStart + 1, tick);
        close();
    }
    return dump;
}

} // namespace pte
