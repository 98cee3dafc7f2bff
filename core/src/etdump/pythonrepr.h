// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Private to the Inspector table: values written the way Python's repr() writes them, as the Inspector's dataframe
// cells are (pythonFloatRepr, public, is in pte/profiletable.h).

#include "pte/etdump.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pte::etdump {

/** Python's repr of a str. */
[[nodiscard]] std::string pyString(std::string_view s);
/** Python's repr of a list of str. */
[[nodiscard]] std::string pyStringList(const std::vector<std::string>& items);
/** Python's repr of a dict of str to str, in the given order. */
[[nodiscard]] std::string pyDict(const std::vector<std::pair<std::string, std::string>>& items);
/** A logged value as the Inspector shows it (tensor(float32[1, 3]), numbers, strings, None). */
[[nodiscard]] std::string describeValue(const EtDump& dump, const EtdumpValue& v);

} // namespace pte::etdump
