// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/diffstatus.h"

namespace pte::ui {

QColor diffStatusColor(pte::DiffStatus status)
{
    switch (status) {
    case pte::DiffStatus::Changed:
        return QColor(0xff, 0xf1, 0xc2);
    case pte::DiffStatus::Added:
        return QColor(0xd6, 0xf5, 0xd6);
    case pte::DiffStatus::Removed:
        return QColor(0xfa, 0xd7, 0xd7);
    case pte::DiffStatus::Same:
        break;
    }
    return {};
}

QColor diffChangedCellColor() { return QColor(0xff, 0xd5, 0x6b); }

QColor diffGapColor() { return QColor(0xec, 0xec, 0xec); }

QString diffStatusLabel(pte::DiffStatus status)
{
    switch (status) {
    case pte::DiffStatus::Same:
        return QStringLiteral("same");
    case pte::DiffStatus::Changed:
        return QStringLiteral("changed");
    case pte::DiffStatus::Added:
        return QStringLiteral("inserted");
    case pte::DiffStatus::Removed:
        return QStringLiteral("removed");
    }
    return {};
}

} // namespace pte::ui
