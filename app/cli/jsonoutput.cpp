// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "jsonoutput.h"

#include "command.h"

namespace ptelens::cli {

nlohmann::ordered_json diagnosticJson(const pte::Diagnostic& d)
{
    nlohmann::ordered_json j;
    j["severity"] = pte::severityName(d.severity);
    j["code"] = pte::errorCodeName(d.code);
    j["message"] = d.message;
    j["offset"] = d.offset ? nlohmann::ordered_json(*d.offset) : nlohmann::ordered_json(nullptr);
    j["field_path"] = d.fieldPath;
    return j;
}

void printJson(const nlohmann::ordered_json& j)
{
    printOut(j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
}

} // namespace ptelens::cli
