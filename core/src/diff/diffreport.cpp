// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The readable and the JSON report of a program comparison.
#include "pte/programdiff.h"

#include <nlohmann/json.hpp>

namespace pte {

namespace {

using Json = nlohmann::ordered_json;

std::string useText(const DiffUse& u)
{
    if (u.instruction == -1)
        return "input " + std::to_string(u.argument);
    if (u.instruction == -2)
        return "output " + std::to_string(u.argument);
    return "instruction " + std::to_string(u.instruction) + " arg " + std::to_string(u.argument);
}

std::string usesText(const std::vector<DiffUse>& uses, std::size_t count)
{
    std::string s;
    for (const auto& u : uses)
        s += (s.empty() ? "" : ", ") + useText(u);
    if (count > uses.size())
        s += ", +" + std::to_string(count - uses.size()) + " more";
    return s;
}

std::string methodTitle(const MethodDiff& m)
{
    if (m.nameA.empty())
        return "method " + m.nameB + " (only in B)";
    if (m.nameB.empty())
        return "method " + m.nameA + " (only in A)";
    if (m.nameA != m.nameB)
        return "method " + m.nameA + " \u2194 " + m.nameB;
    return "method " + m.nameA;
}

std::string categoryCounts(const ProgramDiff& diff)
{
    const auto counts = diff.countByCategory();
    std::string s;
    for (std::size_t c = 0; c < counts.size(); ++c)
        if (counts[c])
            s += (s.empty() ? "" : ", ") + std::to_string(counts[c]) + " " + diffCategoryName(DiffCategory(c));
    return s;
}

bool belongsTo(const Difference& d, const MethodDiff& m) { return d.methodA == m.nameA && d.methodB == m.nameB; }

Json usesJson(const std::vector<DiffUse>& uses)
{
    Json list = Json::array();
    for (const auto& u : uses)
        list.push_back(Json::array({ u.instruction, u.argument }));
    return list;
}

} // namespace

std::string Difference::toString() const
{
    const char* mark = status == DiffStatus::Added ? "+" : status == DiffStatus::Removed ? "-" : "~";
    std::string s = std::string(mark) + " " + subject;
    if (!field.empty())
        s += " " + field;
    if (status == DiffStatus::Changed)
        s += ": " + a + " -> " + b;
    else if (status == DiffStatus::Added && !b.empty())
        s += ": " + b;
    else if (status == DiffStatus::Removed && !a.empty())
        s += ": " + a;
    if (!detail.empty())
        s += " (" + detail + ")";
    if (useCountA || useCountB) {
        if (usesA == usesB && useCountA == useCountB)
            s += " [used by " + usesText(usesA, useCountA) + "]";
        else {
            s += " [used by";
            if (useCountA)
                s += " A: " + usesText(usesA, useCountA) + (useCountB ? ";" : "");
            if (useCountB)
                s += " B: " + usesText(usesB, useCountB);
            s += "]";
        }
    }
    if (strictOnly)
        s += " (strict)";
    return s;
}

std::string diffReportText(const ProgramDiff& diff)
{
    std::string out = "A: " + diff.labelA + "\nB: " + diff.labelB + "\n";
    const std::string mode = diff.strict ? "strict" : "semantic";
    if (diff.equal()) {
        std::size_t instructions = 0;
        for (const auto& m : diff.methods)
            instructions += m.instructionsA;
        out += "equal (" + mode + " comparison): " + std::to_string(diff.methods.size()) + " method(s), "
            + std::to_string(instructions) + " instruction(s)\n";
        return out;
    }
    out += "different (" + mode + " comparison): " + std::to_string(diff.differences.size())
        + " difference(s): " + categoryCounts(diff) + "\n";
    bool programHeader = false;
    for (const auto& d : diff.differences) {
        if (!d.methodA.empty() || !d.methodB.empty())
            continue;
        if (!programHeader) {
            out += "\nprogram\n";
            programHeader = true;
        }
        out += "  " + d.toString() + "\n";
    }
    for (const auto& m : diff.methods) {
        out += "\n" + methodTitle(m) + ": " + std::to_string(m.instructionsA) + " -> " + std::to_string(m.instructionsB)
            + " instructions (" + std::to_string(m.same) + " same, " + std::to_string(m.changed) + " changed, "
            + std::to_string(m.inserted) + " inserted, " + std::to_string(m.removed) + " removed), "
            + std::to_string(m.valuesA) + " -> " + std::to_string(m.valuesB) + " values\n";
        std::string ops;
        for (const auto& [name, counts] : m.operatorCounts)
            if (counts.first != counts.second)
                ops += (ops.empty() ? "" : ", ") + name + " " + std::to_string(counts.first) + " -> "
                    + std::to_string(counts.second);
        if (!ops.empty())
            out += "  operators: " + ops + "\n";
        for (const auto& d : diff.differences)
            if ((!d.methodA.empty() || !d.methodB.empty()) && belongsTo(d, m))
                out += "  " + d.toString() + "\n";
    }
    return out;
}

std::string diffReportJson(const ProgramDiff& diff)
{
    Json j;
    j["a"] = diff.labelA;
    j["b"] = diff.labelB;
    j["mode"] = diff.strict ? "strict" : "semantic";
    j["equal"] = diff.equal();
    Json summary;
    summary["differences"] = diff.differences.size();
    Json byCategory = Json::object();
    const auto counts = diff.countByCategory();
    for (std::size_t c = 0; c < counts.size(); ++c)
        if (counts[c])
            byCategory[diffCategoryName(DiffCategory(c))] = counts[c];
    summary["by_category"] = std::move(byCategory);
    std::size_t constantsChanged = 0;
    for (const auto& c : diff.constants)
        constantsChanged += c.status == DiffStatus::Same ? 0 : 1;
    summary["constants"] = { { "compared", diff.constants.size() }, { "differing", constantsChanged } };
    j["summary"] = std::move(summary);

    Json differences = Json::array();
    for (const auto& d : diff.differences) {
        Json e;
        e["category"] = diffCategoryName(d.category);
        e["status"] = diffStatusName(d.status);
        e["method_a"] = d.methodA;
        e["method_b"] = d.methodB;
        e["subject"] = d.subject;
        e["field"] = d.field;
        e["a"] = d.a;
        e["b"] = d.b;
        if (!d.detail.empty())
            e["detail"] = d.detail;
        e["index_a"] = d.indexA;
        e["index_b"] = d.indexB;
        if (d.useCountA || d.useCountB) {
            e["uses_a"] = usesJson(d.usesA);
            e["use_count_a"] = d.useCountA;
            e["uses_b"] = usesJson(d.usesB);
            e["use_count_b"] = d.useCountB;
        }
        e["strict_only"] = d.strictOnly;
        e["text"] = d.toString();
        differences.push_back(std::move(e));
    }
    j["differences"] = std::move(differences);

    Json methods = Json::array();
    for (const auto& m : diff.methods) {
        Json e;
        e["a"] = m.nameA;
        e["b"] = m.nameB;
        e["status"] = diffStatusName(m.status);
        e["aligned_with_debug_handles"] = m.alignedWithDebugHandles;
        e["instructions"] = { { "a", m.instructionsA }, { "b", m.instructionsB }, { "same", m.same },
            { "changed", m.changed }, { "inserted", m.inserted }, { "removed", m.removed } };
        e["values"] = { { "a", m.valuesA }, { "b", m.valuesB } };
        Json ops = Json::object();
        for (const auto& [name, c] : m.operatorCounts)
            ops[name] = Json::array({ c.first, c.second });
        e["operators"] = std::move(ops);
        Json rows = Json::array();
        for (std::size_t r = 0; r < m.rows.size(); ++r) {
            const auto& row = m.rows[r];
            if (row.status == DiffStatus::Same)
                continue;
            Json x;
            x["row"] = r;
            x["a"] = row.a;
            x["b"] = row.b;
            x["status"] = diffStatusName(row.status);
            if (const auto* c = m.change(r)) {
                Json cols = Json::array();
                if (c->kind)
                    cols.push_back("kind");
                if (c->target)
                    cols.push_back("target");
                if (c->argumentCount)
                    cols.push_back("argument_count");
                if (c->debugHandles)
                    cols.push_back("debug_handles");
                x["changed_columns"] = std::move(cols);
                x["changed_arguments"] = c->arguments;
            }
            rows.push_back(std::move(x));
        }
        e["rows"] = std::move(rows);
        methods.push_back(std::move(e));
    }
    j["methods"] = std::move(methods);

    Json constants = Json::array();
    for (const auto& c : diff.constants) {
        if (c.status == DiffStatus::Same)
            continue;
        Json e;
        e["status"] = diffStatusName(c.status);
        e["method_a"] = c.methodA;
        e["method_b"] = c.methodB;
        e["value_a"] = c.valueA;
        e["value_b"] = c.valueB;
        e["buffer_a"] = c.bufferA;
        e["buffer_b"] = c.bufferB;
        if (!c.fqn.empty())
            e["fqn"] = c.fqn;
        e["type_a"] = c.typeA;
        e["type_b"] = c.typeB;
        e["bytes_a"] = c.bytesA;
        e["bytes_b"] = c.bytesB;
        e["initial_state"] = c.mutableInitialState;
        if (c.numeric) {
            Json n;
            n["elements"] = c.numeric->elements;
            n["differing"] = c.numeric->differing;
            n["max_abs"] = c.numeric->maxAbs;
            n["mean_abs"] = c.numeric->meanAbs;
            n["first_indices"] = c.numeric->firstIndices;
            e["numeric"] = std::move(n);
        }
        constants.push_back(std::move(e));
    }
    j["constants"] = std::move(constants);

    Json delegates = Json::array();
    for (const auto& d : diff.delegates) {
        Json e;
        e["status"] = diffStatusName(d.status);
        e["method_a"] = d.methodA;
        e["method_b"] = d.methodB;
        e["index_a"] = d.indexA;
        e["index_b"] = d.indexB;
        e["backend_a"] = d.backendA;
        e["backend_b"] = d.backendB;
        e["payload_bytes_a"] = d.payloadBytesA;
        e["payload_bytes_b"] = d.payloadBytesB;
        e["payload_sha256_a"] = d.payloadSha256A;
        e["payload_sha256_b"] = d.payloadSha256B;
        e["compile_specs_a"] = d.compileSpecsA;
        e["compile_specs_b"] = d.compileSpecsB;
        e["compile_specs_differ"] = d.compileSpecsDiffer;
        delegates.push_back(std::move(e));
    }
    j["delegates"] = std::move(delegates);
    // Doubles that are inf/nan would make invalid JSON: dump replaces them with null.
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace pte
