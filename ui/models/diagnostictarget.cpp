// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/diagnostictarget.h"

#include "models/text.h"

namespace pte::ui {

namespace {

/** The dump method a diagnostic is about: from the diagnostic's file, preferring the one its location names. */
const DumpMethod* dumpMethodOf(const Snapshot& snapshot, const pte::Diagnostic& d)
{
    const std::string& named = d.location.method;
    const DumpMethod* pick = nullptr;
    for (const auto& dm : snapshot.dumpMethods) {
        if (!dm.program)
            continue;
        const bool sameFile = !d.file.empty() && (dm.program->source == d.file || dm.sourceFile == d.file);
        const bool isNamed = !named.empty() && (dm.name == named || dm.originalName == named);
        if (isNamed && (sameFile || d.file.empty() || !pick)) {
            pick = &dm;
            if (sameFile || d.file.empty())
                break;
        } else if (sameFile && !pick) {
            pick = &dm;
        }
    }
    return pick;
}

/** True when `name` is a node or a placeholder (graph input) of the program's graph. */
bool hasNode(const pte::ExportedProgram& program, const std::string& name)
{
    for (const auto& n : program.graph.nodes)
        if (n.name == name)
            return true;
    for (const auto& in : program.graph.inputs)
        if (!in.names.empty() && in.names.front() == name)
            return true;
    return false;
}

} // namespace

DiagnosticTarget resolveDiagnostic(const Snapshot& snapshot, const pte::Diagnostic& d)
{
    DiagnosticTarget t;
    const pte::Location& at = d.location;
    // A place in a program's plan: chain, instruction, value.
    if (at.chain >= 0 || at.instruction >= 0 || at.value >= 0) {
        const MethodEntry* m = snapshot.method(at.method);
        if (!m || !m->plan)
            return t;
        t.method = toQString(at.method);
        t.chain = int(at.chain);
        t.instruction = at.chain >= 0 ? int(at.instruction) : -1;
        if (at.value >= 0 && std::size_t(at.value) < m->plan->values.size())
            t.value = int(at.value);
        return t;
    }
    if (const DumpMethod* dm = dumpMethodOf(snapshot, d)) {
        t.method = toQString(dm->name);
        if (!at.node.empty() && hasNode(*dm->program, at.node))
            t.nodes << toQString(at.node);
        return t;
    }
    if (!at.method.empty() && snapshot.method(at.method))
        t.method = toQString(at.method);
    return t;
}

} // namespace pte::ui
