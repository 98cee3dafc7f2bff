// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/diffdelegatemodel.h"

#include "models/diffstatus.h"
#include "models/roles.h"
#include "models/text.h"

#include <QBrush>

namespace pte::ui {

QVariant DiffDelegateModel::cell(const pte::DelegateRow& d, int column, int role) const
{
    if (role == Qt::BackgroundRole)
        return d.status == pte::DiffStatus::Same ? QVariant() : QVariant(QBrush(diffStatusColor(d.status)));
    const bool sort = role == SortRole;
    if (role != Qt::DisplayRole && !sort)
        return {};
    auto pair = [](const std::string& a, const std::string& b) {
        return a == b || b.empty() ? toQString(a) : a.empty() ? toQString(b) : toQString(a + " \u2192 " + b);
    };
    switch (column) {
    case StatusColumn:
        return sort ? QVariant(int(d.status)) : QVariant(QLatin1String(pte::diffStatusName(d.status)));
    case MethodColumn:
        return pair(d.methodA, d.methodB);
    case IndexColumn:
        return pair(d.indexA >= 0 ? std::to_string(d.indexA) : std::string(),
            d.indexB >= 0 ? std::to_string(d.indexB) : std::string());
    case BackendColumn:
        return pair(d.backendA, d.backendB);
    case PayloadAColumn:
        return sort ? QVariant(qulonglong(d.payloadBytesA))
                    : QVariant(d.indexA >= 0 ? formatBytes(d.payloadBytesA) : QString());
    case PayloadBColumn:
        return sort ? QVariant(qulonglong(d.payloadBytesB))
                    : QVariant(d.indexB >= 0 ? formatBytes(d.payloadBytesB) : QString());
    case HashAColumn:
        return toQString(d.payloadSha256A.substr(0, 16));
    case HashBColumn:
        return toQString(d.payloadSha256B.substr(0, 16));
    case CompileSpecsColumn:
        return QStringLiteral("%1 / %2%3")
            .arg(d.compileSpecsA)
            .arg(d.compileSpecsB)
            .arg(d.compileSpecsDiffer ? QStringLiteral(", differ") : QString());
    default:
        return {};
    }
}

QVariant DiffDelegateModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Status", "Method", "Index", "Backend", "Payload A", "Payload B", "SHA-256 A",
        "SHA-256 B", "Compile specs" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
