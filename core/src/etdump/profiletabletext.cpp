// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The Inspector table as text: its columns, each row's cells (pandas' to_dataframe()), CSV and TSV.
#include "etdump/pythonrepr.h"
#include "pte/profiletable.h"

namespace pte {

namespace {

using etdump::describeValue;
using etdump::pyDict;
using etdump::pyString;
using etdump::pyStringList;

std::string csvQuote(const std::string& cell)
{
    if (cell.find_first_of(",\"\n\r") == std::string::npos)
        return cell;
    std::string out = "\"";
    for (const char c : cell) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}
} // namespace

std::vector<std::string> profileColumns(const ProfileTable& table)
{
    const std::string unit = std::string(" (") + timeScaleName(table.options.target) + ")";
    return { "event_block_name", "event_name", "raw", "p10" + unit, "p50" + unit, "p90" + unit, "avg" + unit,
        "min" + unit, "max" + unit, "op_types", "delegate_debug_identifier", "stack_traces", "module_hierarchy",
        "is_delegated_op", "delegate_backend_name", "debug_data", "start_time" };
}

std::vector<std::string> profileCells(const EtDump& dump, const ProfileTable& table, const ProfileRow& row)
{
    std::vector<std::string> cells;
    cells.push_back(table.blocks[row.block].name);
    cells.push_back(row.eventName);
    std::string raw = "[";
    for (std::size_t i = 0; i < row.raw.size(); ++i)
        raw += (i ? ", " : "") + pythonFloatRepr(row.raw[i]);
    cells.push_back(raw + "]");
    for (const double v : { row.p10, row.p50, row.p90, row.avg, row.min, row.max })
        cells.push_back(row.raw.empty() ? std::string() : pythonFloatRepr(v));
    if (row.opTypes.size() < 5)
        cells.push_back(pyStringList(row.opTypes));
    else
        cells.push_back("[" + pyString(row.opTypes[0]) + ", " + pyString(row.opTypes[1]) + " ... "
            + pyString(row.opTypes.back()) + "] (" + std::to_string(row.opTypes.size()) + " total)");
    cells.push_back(row.delegateIdInt ? std::to_string(*row.delegateIdInt) : row.delegateIdStr.value_or(std::string()));
    cells.push_back(pyDict(row.stackTraces));
    cells.push_back(pyDict(row.moduleHierarchy));
    cells.push_back(row.isDelegatedOp ? "True" : "False");
    cells.push_back(row.delegateBackendName);
    std::string debug;
    if (!row.debugEvents.empty()) {
        debug = "[";
        for (std::size_t i = 0; i < row.debugEvents.size(); ++i) {
            const auto* v = dump.value(dump.events[row.debugEvents[i]]);
            debug += (i ? ", " : "") + (v ? describeValue(dump, *v) : std::string("None"));
        }
        debug += "]";
    }
    cells.push_back(debug);
    std::string starts = "[";
    for (std::size_t i = 0; i < row.startTimes.size(); ++i)
        starts += (i ? ", " : "") + std::to_string(row.startTimes[i]);
    cells.push_back(starts + "]");
    return cells;
}

std::string profileTableText(
    const EtDump& dump, const ProfileTable& table, char separator, const std::vector<std::uint32_t>* rows)
{
    auto line = [&](const std::vector<std::string>& cells) {
        std::string s;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (i)
                s += separator;
            if (separator == ',') {
                s += csvQuote(cells[i]);
            } else {
                for (const char c : cells[i])
                    s += (c == '\t' || c == '\n' || c == '\r') ? ' ' : c;
            }
        }
        return s + "\n";
    };
    std::string out = line(profileColumns(table));
    if (rows) {
        for (const auto r : *rows)
            if (r < table.rows.size())
                out += line(profileCells(dump, table, table.rows[r]));
        return out;
    }
    for (const auto& row : table.rows)
        out += line(profileCells(dump, table, row));
    return out;
}
} // namespace pte
