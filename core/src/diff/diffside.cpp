// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// openDiffSide(): a .pte as read, or a graph dump emitted with the default options (as `ptelens-cli emit` writes it).
#include "pte/bundledprogram.h"
#include "pte/dumpreader.h"
#include "pte/emitter.h"
#include "pte/programdiff.h"
#include "pte/ptereader.h"
#include "pte/ptewriter.h"

#include <cstring>
#include <fstream>

namespace pte {

namespace {

/** The laid-out program of an emission, with what it views (the dumps hold the weights). */
struct EmittedProgram
{
    std::shared_ptr<const DumpSet> dumps;
    Program program;
};

/** Whether `path` is opened as a program: its identifier at byte 4 is ExecuTorch's (`ET..`) or a bundled program's,
 *  or its name ends in .pte, .bpte or .bp (so a corrupt program gets the program reader's message, with its byte
 *  offset, rather than the graph-dump reader's). */
Result<bool> looksLikePte(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail(ErrorCode::Io, "cannot open " + path + ": " + std::strerror(errno));
    if (path.ends_with(".pte") || path.ends_with(".bpte") || path.ends_with(".bp"))
        return true;
    char head[8] = {};
    in.read(head, sizeof head);
    if (in.gcount() != 8)
        return false;
    const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(head), sizeof head);
    return (head[4] == 'E' && head[5] == 'T') || isBundledProgram(bytes);
}

Result<DiffSide> emitDump(const std::string& path)
{
    PTE_TRY(auto dumps, readDump(path));
    if (dumps->methods.empty())
        return fail(ErrorCode::InvalidInput, path + " holds no program to emit");
    std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>> methods(
        dumps->methods.begin(), dumps->methods.end());
    EmitOptions options;
    if (dumps->etrecordMaps)
        options.etrecordDelegateMap = dumps->etrecordMaps->delegateMap;
    // A single program is the method `forward` (emit_program's rule), as `ptelens-cli emit` writes it.
    if (methods.size() == 1 && methods[0].first != "forward") {
        const auto it = options.etrecordDelegateMap.find(methods[0].first);
        if (it != options.etrecordDelegateMap.end()) {
            auto entry = std::move(it->second);
            options.etrecordDelegateMap.erase(it);
            options.etrecordDelegateMap["forward"] = std::move(entry);
        }
        methods[0].first = "forward";
    }
    PTE_TRY(auto emitted, emitProgram(methods, options));
    auto laidOut = std::make_shared<EmittedProgram>();
    laidOut->dumps = dumps;
    auto maps = std::make_shared<EtRecordMaps>();
    maps->debugHandleMap = emitted.debugHandleMap;
    maps->delegateMap = emitted.methodToDelegateDebugIdMap;
    maps->instructionIdToNumOutsMap = emitted.instructionIdToNumOutsMap;
    PTE_TRY(laidOut->program,
        layoutForSerialization(std::move(emitted.program), emitted.mutableData, emitted.namedData, options.serialize));
    DiffSide out;
    out.label = path;
    out.program = std::shared_ptr<const Program>(laidOut, &laidOut->program);
    out.debugMaps = std::move(maps);
    out.dumps = dumps;
    out.emitted = std::make_shared<const EmitterOutput>(std::move(emitted));
    out.emittedFrom = std::move(methods);
    return out;
}

} // namespace

Result<DiffSide> openDiffSide(const std::string& path, const DiffSideOptions& options)
{
    PTE_TRY(const bool pte, looksLikePte(path));
    DiffSide side;
    if (pte) {
        ReadOptions read;
        read.externalDataPath = options.externalDataPath;
        PTE_TRY(auto file, readPteFile(path, read));
        side.label = path;
        side.program = file->program;
        side.file = file;
    } else {
        PTE_TRY(side, emitDump(path));
    }
    if (!options.etrecordPath.empty()) {
        PTE_TRY(const auto record, readDump(options.etrecordPath));
        if (!record->etrecordMaps)
            return fail(ErrorCode::InvalidInput, options.etrecordPath + " is not an ETRecord (it has no debug maps)");
        side.debugMaps = std::make_shared<const EtRecordMaps>(*record->etrecordMaps);
    }
    return side;
}

} // namespace pte
