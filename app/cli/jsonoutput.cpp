// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "jsonoutput.h"

#include "command.h"

#include <cstdio>

namespace pte::cli {

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

namespace {

using Json = nlohmann::ordered_json;

void appendRunnerJson(std::string& out, const Json& j, bool doubles)
{
    switch (j.type()) {
    case Json::value_t::object: {
        // A Double tensor or scalar prints its numbers to 17 digits.
        const auto dtype = j.find("dtype");
        const auto tag = j.find("tag");
        const bool isDouble = (dtype != j.end() && *dtype == "Double") || (tag != j.end() && *tag == "Double");
        out += '{';
        bool first = true;
        for (const auto& [key, value] : j.items()) {
            if (!first)
                out += ", ";
            first = false;
            out += Json(key).dump(-1, ' ', false, Json::error_handler_t::replace) + ": ";
            appendRunnerJson(out, value, isDouble);
        }
        out += '}';
        break;
    }
    case Json::value_t::array: {
        out += '[';
        for (std::size_t i = 0; i < j.size(); ++i) {
            if (i)
                out += ", ";
            appendRunnerJson(out, j[i], doubles);
        }
        out += ']';
        break;
    }
    case Json::value_t::number_float: {
        char buf[64];
        std::snprintf(buf, sizeof buf, doubles ? "%.17g" : "%.9g", j.get<double>());
        out += buf;
        break;
    }
    default:
        out += j.dump(-1, ' ', false, Json::error_handler_t::replace);
        break;
    }
}

} // namespace

std::string runnerJsonText(const nlohmann::ordered_json& j)
{
    if (!j.is_object())
        return j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
    // {"file": ..., "methods": {\n  "forward": {...},\n  "other": {...}\n },\n "result": ...}
    std::string out = "{";
    bool first = true;
    bool afterMethods = false;
    for (const auto& [key, value] : j.items()) {
        if (!first)
            out += afterMethods ? ",\n " : ", ";
        first = false;
        afterMethods = false;
        out += Json(key).dump(-1, ' ', false, Json::error_handler_t::replace) + ": ";
        if (key == "methods" && value.is_object()) {
            out += "{\n";
            bool firstMethod = true;
            for (const auto& [name, method] : value.items()) {
                if (!firstMethod)
                    out += ",\n";
                firstMethod = false;
                out += "  " + Json(name).dump(-1, ' ', false, Json::error_handler_t::replace) + ": ";
                appendRunnerJson(out, method, false);
            }
            out += "\n }";
            afterMethods = true;
            continue;
        }
        appendRunnerJson(out, value, false);
    }
    return out + "}\n";
}

} // namespace pte::cli
