// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/dumpreader_p.h"
#include "dump/exportedprogramdecoder.h"

namespace pte::dump {

Result<void> readBareJson(std::string_view text, DumpSet& set, const DumpReadOptions& opt)
{
    set.container = DumpSet::Container::BareJson;
    Diagnostics diags;
    PTE_TRY(auto ep, decodeProgram(text, set.path, diags, opt.maxEntrySize));
    computeMissingWeights(*ep);
    if (!ep->missingWeights.empty()) {
        Diagnostic d;
        d.severity = Severity::Info;
        d.code = ErrorCode::InvalidInput;
        d.message = "bare JSON dump: " + std::to_string(ep->missingWeights.size())
            + " weight(s) are not included (see missingWeights); emitting needs them";
        d.file = set.path;
        diags.push_back(std::move(d));
    }
    set.methods.emplace_back("forward", std::move(ep));
    collectDiagnostics(set, diags);
    return {};
}

} // namespace pte::dump
