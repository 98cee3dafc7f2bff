// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/delegatelink.h"
#include "pte/delegatepayload.h"
#include "pte/emitter.h"
#include "pte/graph.h"
#include "pte/ptereader.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pte::ui {

struct Snapshot;

/** What the delegates are decoded and linked from: the program, where its data lives, the maps and the graphs. */
struct DelegateInputs
{
    std::shared_ptr<const pte::Program> program;
    std::shared_ptr<const pte::PteFile> pteFile; ///< for its .ptd (external named data)
    std::shared_ptr<const pte::EmitterOutput> emitted; ///< its debug maps and named data, when emitted
    std::shared_ptr<const pte::EtRecordMaps> etrecordMaps; ///< from an ETRecord opened alongside
    /** Source graphs by display name: the dump methods (an ETRecord's edge program, or the dumps emitted from). */
    std::vector<std::pair<std::string, std::shared_ptr<const pte::ExportedProgram>>> graphs;
};

/**
 * Every delegate of a program with its decoded payload and its links to the source graphs (pte/delegatelink.h).
 * Built off the GUI thread by the document's jobs; immutable, shared by the views through the Snapshot. Holds the
 * program and the graphs it points into.
 */
struct DelegateInspection
{
    DelegateInputs inputs;
    std::vector<pte::ProgramDelegate> delegates;
    std::vector<pte::DelegateLinks> links; ///< per delegate
    pte::SourceGraphIndex index;
    bool haveDebugMaps = false;

    /** Index into `delegates` of delegate `delegateIndex` of `method`, or -1. */
    [[nodiscard]] int find(std::string_view method, std::uint32_t delegateIndex) const noexcept;
    /** The delegates of one method, as indices into `delegates`. */
    [[nodiscard]] std::vector<int> ofMethod(std::string_view method) const;
};

/** The inputs a snapshot offers (its program, .pte, emission, ETRecord maps and dump methods). */
[[nodiscard]] DelegateInputs delegateInputsOf(const Snapshot& snapshot);

/** Decodes and links every delegate; null when there is no program. Never fails (findings are in the payloads). */
[[nodiscard]] std::shared_ptr<const DelegateInspection> inspectDelegates(DelegateInputs inputs);

} // namespace pte::ui
