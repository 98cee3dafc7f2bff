// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// readDump: recognises the container and hands it to its reader (dump/dumpreader_p.h lists them).
#include "pte/dumpreader.h"

#include "dump/dumpreader_p.h"
#include "dump/exportedprogramdecoder.h"
#include "pte/mappedfile.h"

#include <algorithm>
#include <cctype>

namespace pte {

namespace dump {

void collectDiagnostics(DumpSet& set, Diagnostics& diags)
{
    set.diagnostics.insert(
        set.diagnostics.end(), std::make_move_iterator(diags.begin()), std::make_move_iterator(diags.end()));
    diags.clear();
}

Result<std::shared_ptr<ExportedProgram>> readProgramEntry(
    const dump::ZipArchive& zip, const dump::ZipEntry& e, Diagnostics& diags, std::uint64_t maxEntrySize)
{
    PTE_TRY(const Bytes text, zip.read(e));
    return decodeProgram(text.asStringView(), zip.entryLabel(e), diags, maxEntrySize);
}

} // namespace dump

namespace {

/** Names, in each diagnostic about one of the set's programs (by its source), the method it belongs to. */
void nameMethods(DumpSet& set)
{
    for (auto& d : set.diagnostics)
        for (const auto& [name, ep] : set.methods)
            if (d.location.method.empty() && !d.file.empty() && d.file == ep->source)
                d.location.method = name;
}

} // namespace

Result<std::shared_ptr<const DumpSet>> readDump(const std::string& path, const DumpReadOptions& options)
{
    PTE_TRY(const Bytes data, mapFile(path));
    auto set = std::make_shared<DumpSet>();
    set->path = path;
    if (dump::ZipArchive::looksLikeZip(data.span())) {
        PTE_TRY(const dump::ZipArchive zip, dump::ZipArchive::open(data, path, options.maxEntrySize));
        const dump::ZipEntry* fmt = zip.findInRoot("archive_format");
        bool pt2 = false;
        if (fmt) {
            PTE_TRY(const Bytes f, zip.read(*fmt));
            pt2 = f.asStringView().substr(0, 3) == "pt2";
        }
        if (!pt2 && !zip.rootFolder().empty() && zip.findInRoot("data.pkl"))
            return fail(ErrorCode::Unsupported,
                path + " is a torch.save checkpoint (data.pkl), not an exported program; use torch.export.save");
        if (!pt2 && !zip.rootFolder().empty() && zip.findInRoot("constants.pkl"))
            return fail(ErrorCode::Unsupported, path + " is a TorchScript archive (torch.jit.save), not torch.export");
        if (pt2 || std::any_of(zip.entries().begin(), zip.entries().end(), [&](const dump::ZipEntry& e) {
                return e.name.compare(0, zip.rootPath("models/").size(), zip.rootPath("models/")) == 0;
            })) {
            PTE_CHECK(dump::readPt2(zip, *set, options));
        } else if (zip.findInRoot("serialized_exported_program.json")) {
            PTE_CHECK(dump::readLegacy(zip, *set, options));
        } else if (zip.find("ETRECORD_V0")) {
            PTE_CHECK(dump::readEtRecord(zip, *set, options));
        } else {
            return fail(ErrorCode::InvalidInput,
                path
                    + " is a zip archive but not a graph dump (no archive_format/models/*.json, "
                      "serialized_exported_program.json or ETRECORD_V0 entry)");
        }
        nameMethods(*set);
        return std::shared_ptr<const DumpSet>(std::move(set));
    }
    // Bare JSON: the first non-space byte must open an object.
    std::size_t i = 0;
    const auto text = data.asStringView();
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
        ++i;
    if (i == text.size() || text[i] != '{')
        return fail(ErrorCode::InvalidInput,
            path + " is not a graph dump (neither a zip archive nor an exported-program JSON document)", i);
    PTE_CHECK(dump::readBareJson(text, *set, options));
    nameMethods(*set);
    return std::shared_ptr<const DumpSet>(std::move(set));
}

} // namespace pte
