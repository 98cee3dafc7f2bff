// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/operatormodel.h"

#include "models/roles.h"
#include "models/text.h"
#include "pte/kernelcoverage.h"

#include <QColor>

#include <map>

namespace pte::ui {

void OperatorModel::setSnapshot(std::shared_ptr<const Snapshot> snapshot)
{
    beginResetModel();
    m_rows.clear();
    if (snapshot && snapshot->program) {
        std::map<std::string, Row> byName;
        for (const auto& plan : snapshot->program->executionPlan) {
            std::vector<std::uint64_t> uses(plan.operators.size(), 0);
            for (const auto& chain : plan.chains)
                for (const auto& ins : chain.instructions)
                    if (const auto* k = std::get_if<pte::KernelCall>(&ins.args))
                        if (k->opIndex >= 0 && std::size_t(k->opIndex) < uses.size())
                            ++uses[std::size_t(k->opIndex)];
            for (std::size_t i = 0; i < plan.operators.size(); ++i) {
                const std::string name = plan.operators[i].qualifiedName();
                Row& row = byName[name];
                if (row.name.isEmpty()) {
                    row.name = toQString(name);
                    row.portable = pte::portableKernelImplements(name);
                }
                row.uses += uses[i];
                const QString method = toQString(plan.name);
                if (!row.methods.contains(method))
                    row.methods << method;
            }
        }
        for (auto& [name, row] : byName)
            m_rows.push_back(std::move(row));
    }
    endResetModel();
}

QVariant OperatorModel::cell(int row, int column, int role) const
{
    const Row& r = m_rows[std::size_t(row)];
    const bool sort = role == SortRole;
    if (column == PortableColumn && role == Qt::ForegroundRole)
        return r.portable ? QColor(0x2e, 0x7d, 0x32) : QColor(0xb0, 0x30, 0x30);
    if (column == PortableColumn && role == Qt::ToolTipRole)
        return r.portable ? QStringLiteral("ExecuTorch's portable kernel library implements this operator")
                          : QStringLiteral("No portable kernel: the runtime needs a custom or optimized kernel "
                                           "library registering it, or loading fails with OperatorMissing");
    if (column == UsesColumn && role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && !sort)
        return {};
    switch (column) {
    case NameColumn:
        return r.name;
    case UsesColumn:
        return sort ? QVariant(qulonglong(r.uses)) : QVariant(QString::number(r.uses));
    case MethodsColumn:
        return r.methods.join(QStringLiteral(", "));
    case PortableColumn:
        return sort ? QVariant(int(r.portable)) : QVariant(r.portable ? QStringLiteral("yes") : QStringLiteral("no"));
    default:
        return {};
    }
}

QVariant OperatorModel::headerCell(int column, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Operator", "Uses", "Methods", "Portable kernel" };
    return QLatin1String(names[column]);
}

} // namespace pte::ui
