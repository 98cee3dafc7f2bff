// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"

#include <QString>
#include <QStringList>

#include <map>
#include <string>

namespace pte::ui {

/** Prim getters (constant methods) as typed in the Emit dialog, and the problems found. */
struct PrimGetterList
{
    std::map<std::string, pte::EValue> getters;
    QStringList errors; ///< "Line 2: ..." per invalid line; empty when every line is valid
};

/**
 * Parses `name=value` lines: an integer (64-bit) becomes an Int, a number with '.', an exponent, "inf" or
 * "nan" a Double, true/false a Bool, a "double-quoted" or 'single-quoted' text or any other text a String.
 * Blank lines and lines starting with '#' are skipped. Names are identifiers ([A-Za-z_][A-Za-z0-9_]*) and
 * unique; whitespace around names and unquoted values is ignored.
 */
[[nodiscard]] PrimGetterList parsePrimGetters(const QString& text);
/** The inverse of parsePrimGetters (one line per getter, strings quoted). */
[[nodiscard]] QString formatPrimGetters(const std::map<std::string, pte::EValue>& getters);

} // namespace pte::ui
