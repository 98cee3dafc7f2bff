// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/dumpreader_p.h"

#include <algorithm>

namespace pte::dump {

Result<void> readPt2(const ZipArchive& zip, DumpSet& set, const DumpReadOptions& opt)
{
    set.container = DumpSet::Container::Pt2Archive;
    const std::string modelsPrefix = zip.rootPath("models/");
    Diagnostics diags;
    for (const auto& e : zip.entries()) {
        if (e.name.compare(0, modelsPrefix.size(), modelsPrefix) != 0 || e.name.size() <= modelsPrefix.size() + 5
            || e.name.compare(e.name.size() - 5, 5, ".json") != 0)
            continue;
        const std::string model = e.name.substr(modelsPrefix.size(), e.name.size() - modelsPrefix.size() - 5);
        if (model.find('/') != std::string::npos)
            continue;
        PTE_TRY(auto ep, readProgramEntry(zip, e, diags, opt.maxEntrySize));
        if (const ZipEntry* wc = zip.findInRoot("data/weights/" + model + "_weights_config.json")) {
            PTE_CHECK(loadPayloadConfig(zip, *wc, "data/weights", *ep, diags, opt.maxEntrySize));
        } else if (const ZipEntry* wp = zip.findInRoot("data/weights/" + model + ".pt")) {
            PTE_CHECK(loadPickledWeights(zip, *wp, *ep, opt.maxEntrySize, false, diags));
        }
        if (const ZipEntry* cc = zip.findInRoot("data/constants/" + model + "_constants_config.json")) {
            PTE_CHECK(loadPayloadConfig(zip, *cc, "data/constants", *ep, diags, opt.maxEntrySize));
        } else if (const ZipEntry* cp = zip.findInRoot("data/constants/" + model + ".pt")) {
            PTE_CHECK(loadPickledWeights(zip, *cp, *ep, opt.maxEntrySize, true, diags));
        }
        if (const ZipEntry* si = zip.findInRoot("data/sample_inputs/" + model + ".pt"))
            loadSampleInputs(zip, *si, *ep, opt.maxEntrySize, diags);
        computeMissingWeights(*ep);
        set.methods.emplace_back(model, std::move(ep));
    }
    collectDiagnostics(set, diags);
    if (set.methods.empty()) {
        const bool aoti = std::any_of(zip.entries().begin(), zip.entries().end(),
            [&](const ZipEntry& e) { return e.name.find("data/aotinductor/") != std::string::npos; });
        return fail(ErrorCode::Unsupported,
            set.path + ": the PT2 archive has no models/<name>.json entry"
                + (aoti ? std::string(" (it is an AOTInductor package: compiled code, no exported program)")
                        : std::string()));
    }
    return {};
}

} // namespace pte::dump
