// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// STUB: replaced by the JSON dump implementation.
#include "pte/jsondump.h"

namespace pte {
std::string programToJson(const Program&, const JsonDumpOptions&) { return "{}"; }
} // namespace pte
