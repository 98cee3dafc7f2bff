// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/delegateblobs.h"

#include "models/text.h"

namespace pte::ui {

std::map<DelegateBlobKey, QStringList> delegateBlobUsers(const pte::Program& program)
{
    std::map<DelegateBlobKey, QStringList> users;
    for (const auto& plan : program.executionPlan) {
        const QString name = toQString(plan.name);
        for (const auto& d : plan.delegates) {
            QStringList& methods = users[blobKey(d)];
            if (!methods.contains(name))
                methods << name;
        }
    }
    return users;
}

QString blobLocationText(const DelegateBlobKey& key)
{
    return QStringLiteral("%1 #%2")
        .arg(key.first == pte::DataLocation::Inline ? QStringLiteral("inline") : QStringLiteral("segment"))
        .arg(key.second);
}

} // namespace pte::ui
