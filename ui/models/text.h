// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/graph.h"
#include "pte/program.h"

#include <QString>

#include <cstdint>
#include <string_view>
#include <vector>

namespace pte::ui {

/** The one conversion from core strings (UTF-8) to QString. */
[[nodiscard]] inline QString toQString(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

/** "%12": how ExecuTorch tools name value 12. */
[[nodiscard]] inline QString valueRef(qint64 id) { return QLatin1Char('%') + QString::number(id); }
/** "1 value", "3 values": a count with its noun, singular for one (`plural` when not noun + "s"). */
[[nodiscard]] inline QString counted(qint64 n, const QString& noun, const QString& plural = {})
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? noun : plural.isEmpty() ? noun + QLatin1Char('s') : plural);
}
/** "[1, 3, 224, 224]" */
[[nodiscard]] QString formatShape(const std::vector<std::int32_t>& sizes);
/** "[1, 3, 224, 224]" of a run's tensor (HostTensor sizes) */
[[nodiscard]] QString formatShape(const std::vector<std::int64_t>& sizes);
/** "[s0, 3]" for symbolic sizes */
[[nodiscard]] QString formatShape(const std::vector<pte::SymInt>& sizes);
/** "0,1,2,3" */
[[nodiscard]] QString formatDimOrder(const std::vector<std::uint8_t>& dimOrder);
/** "1.2 MiB" / "512 B" */
[[nodiscard]] QString formatBytes(std::uint64_t bytes);
/** "1, 2, 3" */
[[nodiscard]] QString formatIntList(const std::vector<std::int64_t>& values);
/** Short dtype name ("f32"). */
[[nodiscard]] QString dtypeName(pte::ScalarType t);
/** One-line summary of an EValue ("Tensor f32 [2, 3]", "Int 4", "IntList [..]"). */
[[nodiscard]] QString describeValue(const pte::EValue& value);

} // namespace pte::ui
