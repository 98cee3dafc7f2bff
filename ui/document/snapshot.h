// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/profiledata.h"
#include "document/runresult.h"
#include "pte/diagnostic.h"
#include "pte/emitter.h"
#include "pte/graph.h"
#include "pte/program.h"
#include "pte/ptereader.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pte::ui {

struct DelegateInspection;

/** A method that comes from a graph dump (editable before emission). */
struct DumpMethod
{
    std::string name; ///< method name used when emitting
    std::string originalName; ///< name in the dump
    std::string sourceFile;
    std::shared_ptr<const pte::ExportedProgram> program;
    /** The ETRecord's delegate_map entries of this method (by delegate-call instruction id), carried into emission. */
    std::map<std::int64_t, pte::DelegateMapEntry> etrecordDelegateMap;
};

/** One row of the Methods view: what is known about a method from every source. */
struct MethodEntry
{
    std::string name;
    const pte::ExecutionPlan* plan = nullptr; ///< loaded or emitted plan, or nullptr
    std::shared_ptr<const pte::ExportedProgram> exported; ///< its graph dump, or nullptr
    const pte::MethodEmitInfo* emitInfo = nullptr; ///< emitter extras, or nullptr
    const std::map<std::int64_t, std::vector<std::int64_t>>* debugHandles = nullptr; ///< instruction -> handles
    const std::map<std::int64_t, pte::DelegateMapEntry>* delegateMap = nullptr; ///< instruction -> delegate ids
    bool isTrainingMetadata = false; ///< __et_training_*
    bool isConstant = false; ///< prim getter: no instructions, returns a constant
};

/**
 * Everything the views show, as one immutable value: the loaded .pte, the graph dumps, the ETRecord
 * maps and the last emission. Replaced as a whole (copy-on-write) when anything changes; models keep
 * a shared_ptr so the data cannot change under them.
 */
struct Snapshot
{
    std::vector<std::string> inputPaths;
    std::shared_ptr<const pte::PteFile> pteFile; ///< the opened .pte, if any
    std::shared_ptr<const pte::Program> program; ///< loaded or emitted program, if any
    std::shared_ptr<const pte::EmitterOutput> emitted; ///< the last successful emission
    std::vector<DumpMethod> dumpMethods; ///< methods from graph dumps, in order
    std::shared_ptr<const pte::EtRecordMaps> etrecordMaps; ///< from an ETRecord given alongside
    std::shared_ptr<const ProfileData> profile; ///< an ETDump opened with the program (or alone), joined with it
    pte::Diagnostics diagnostics; ///< from every reader and the emitter
    /** The program's delegates decoded and linked (document/delegateinspection.h); set by the load and emit jobs. */
    std::shared_ptr<const DelegateInspection> delegates;
    /** The last run on the reference interpreter (Program > Run…); stale once `program` is another (currentRun()). */
    std::shared_ptr<const RunResult> run;
    std::vector<MethodEntry> methods; ///< computed by finalize()

    /** Rebuilds `methods` from the other members. Call after changing them. */
    void finalize();
    [[nodiscard]] const MethodEntry* method(std::string_view name) const noexcept;
    [[nodiscard]] int methodIndex(std::string_view name) const noexcept;
    [[nodiscard]] bool isEmpty() const noexcept { return !program && dumpMethods.empty() && !profile; }
};

/** True for ExecuTorch's training metadata methods (__et_training_*). */
[[nodiscard]] bool isTrainingMetadataMethod(std::string_view name) noexcept;
/** True for a prim-getter method: no instructions and a single constant output. */
[[nodiscard]] bool isConstantMethod(const pte::ExecutionPlan& plan) noexcept;

} // namespace pte::ui
