// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/diagnostictarget.h"

#include "models/text.h"

#include <QRegularExpression>

namespace pte::ui {

namespace {

bool resolveProgramPath(const Snapshot& snapshot, const QString& path, DiagnosticTarget& t)
{
    static const QRegularExpression planRe(QStringLiteral("^execution_plan\\[(\\d+)\\]"));
    const auto plan = planRe.match(path);
    if (!plan.hasMatch() || !snapshot.program)
        return false;
    const auto p = plan.captured(1).toULongLong();
    if (p >= snapshot.program->executionPlan.size())
        return false;
    const pte::ExecutionPlan& ep = snapshot.program->executionPlan[std::size_t(p)];
    t.method = toQString(ep.name);
    const QString rest = path.mid(plan.capturedLength());
    static const QRegularExpression instrRe(QStringLiteral("^\\.chains\\[(\\d+)\\](?:\\.instructions\\[(\\d+)\\])?"));
    static const QRegularExpression valueRe(QStringLiteral("^\\.values\\[(\\d+)\\]"));
    static const QRegularExpression ioRe(QStringLiteral("^\\.(inputs|outputs)\\[(\\d+)\\]"));
    if (const auto m = instrRe.match(rest); m.hasMatch()) {
        t.chain = m.captured(1).toInt();
        if (m.hasCaptured(2))
            t.instruction = m.captured(2).toInt();
    } else if (const auto v = valueRe.match(rest); v.hasMatch()) {
        t.value = v.captured(1).toInt();
    } else if (const auto io = ioRe.match(rest); io.hasMatch()) {
        const auto& list = io.captured(1) == QLatin1String("inputs") ? ep.inputs : ep.outputs;
        const auto k = io.captured(2).toULongLong();
        if (k < list.size())
            t.value = list[std::size_t(k)];
    }
    return true;
}

QString quoted(const QString& message, const QString& what)
{
    const QRegularExpression re(what + QStringLiteral(" '([^']+)'"));
    const auto m = re.match(message);
    return m.hasMatch() ? m.captured(1) : QString();
}

/** The node whose JSON path is the longest prefix of `path` (at a '.' or '[' boundary), or nullptr. */
const pte::Node* nodeAtPath(const pte::Graph& graph, const std::string& path)
{
    const pte::Node* best = nullptr;
    for (const auto& n : graph.nodes) {
        if (n.jsonPath.empty() || !path.starts_with(n.jsonPath))
            continue;
        if (path.size() > n.jsonPath.size() && path[n.jsonPath.size()] != '.' && path[n.jsonPath.size()] != '[')
            continue;
        if (!best || n.jsonPath.size() > best->jsonPath.size())
            best = &n;
    }
    return best;
}

} // namespace

DiagnosticTarget resolveDiagnostic(const Snapshot& snapshot, const pte::Diagnostic& d)
{
    DiagnosticTarget t;
    if (resolveProgramPath(snapshot, toQString(d.fieldPath), t))
        return t;
    const QString message = toQString(d.message);
    const QString methodName = quoted(message, QStringLiteral("method"));
    const QString nodeName = quoted(message, QStringLiteral("node"));
    // Candidate dump methods: from the diagnostic's file, preferring the one the message names.
    const DumpMethod* pick = nullptr;
    for (const auto& dm : snapshot.dumpMethods) {
        if (!dm.program)
            continue;
        const bool sameFile = !d.file.empty() && (dm.program->source == d.file || dm.sourceFile == d.file);
        const bool named =
            !methodName.isEmpty() && (toQString(dm.name) == methodName || toQString(dm.originalName) == methodName);
        if (named && (sameFile || d.file.empty() || !pick)) {
            pick = &dm;
            if (sameFile || d.file.empty())
                break;
        } else if (sameFile && !pick) {
            pick = &dm;
        }
    }
    if (!pick)
        return t;
    t.method = toQString(pick->name);
    const pte::Graph& graph = pick->program->graph;
    if (const pte::Node* atPath = d.fieldPath.empty() ? nullptr : nodeAtPath(graph, d.fieldPath))
        t.nodes << toQString(atPath->name);
    else if (!nodeName.isEmpty())
        for (const auto& n : graph.nodes)
            if (toQString(n.name) == nodeName) {
                t.nodes << nodeName;
                break;
            }
    if (t.nodes.isEmpty()) {
        // "buffer 'num_calls'", "parameter 'lin.weight'", ...: the placeholder of that input.
        for (const char* kind : { "buffer", "parameter", "constant", "tensor constant" }) {
            const QString target = quoted(message, QLatin1String(kind));
            if (target.isEmpty())
                continue;
            for (const auto& spec : pick->program->signature.inputSpecs)
                if (toQString(spec.target) == target && !spec.arg.names.empty()) {
                    t.nodes << toQString(spec.arg.names.front());
                    break;
                }
            if (!t.nodes.isEmpty())
                break;
        }
    }
    return t;
}

} // namespace pte::ui
