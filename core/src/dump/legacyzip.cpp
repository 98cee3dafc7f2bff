// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/dumpreader_p.h"

namespace pte::dump {

Result<void> readLegacy(const ZipArchive& zip, DumpSet& set, const DumpReadOptions& opt)
{
    set.container = DumpSet::Container::LegacyZip;
    Diagnostics diags;
    const ZipEntry* pe = zip.findInRoot("serialized_exported_program.json");
    PTE_TRY(auto ep, readProgramEntry(zip, *pe, diags, opt.maxEntrySize));
    for (const char* name : { "serialized_state_dict.pt", "serialized_state_dict.json" })
        if (const ZipEntry* e = zip.findInRoot(name)) {
            PTE_CHECK(loadPickledWeights(zip, *e, *ep, opt.maxEntrySize, false, diags));
            break;
        }
    for (const char* name : { "serialized_constants.pt", "serialized_constants.json" })
        if (const ZipEntry* e = zip.findInRoot(name)) {
            PTE_CHECK(loadPickledWeights(zip, *e, *ep, opt.maxEntrySize, true, diags));
            break;
        }
    if (const ZipEntry* si = zip.findInRoot("serialized_example_inputs.pt"))
        loadSampleInputs(zip, *si, *ep, opt.maxEntrySize, diags);
    computeMissingWeights(*ep);
    set.methods.emplace_back("forward", std::move(ep));
    collectDiagnostics(set, diags);
    return {};
}

} // namespace pte::dump
