// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/exportedprogramdecoder.h"

#include "dump/dumpreader_p.h"

#include <algorithm>
#include <exception>

namespace pte {

namespace dump {

std::optional<ScalarType> convertDtype(DtypeTable table, std::int64_t code)
{
    switch (code) {
    case 1:
        return ScalarType::Byte;
    case 2:
        return ScalarType::Char;
    case 3:
        return ScalarType::Short;
    case 4:
        return ScalarType::Int;
    case 5:
        return ScalarType::Long;
    case 6:
        return ScalarType::Half;
    case 7:
        return ScalarType::Float;
    case 8:
        return ScalarType::Double;
    case 9:
        return ScalarType::ComplexHalf;
    case 10:
        return ScalarType::ComplexFloat;
    case 11:
        return ScalarType::ComplexDouble;
    case 12:
        return ScalarType::Bool;
    case 13:
        return ScalarType::BFloat16;
    default:
        break;
    }
    switch (table) {
    case DtypeTable::TorchUpTo7:
        switch (code) {
        case 23:
            return ScalarType::Float8e5m2;
        case 24:
            return ScalarType::Float8e4m3fn;
        case 25:
            return ScalarType::Float8e5m2fnuz;
        case 26:
            return ScalarType::Float8e4m3fnuz;
        default:
            return std::nullopt;
        }
    case DtypeTable::Torch8Early:
        switch (code) {
        case 14:
            return ScalarType::Float8e4m3fn;
        case 15:
            return ScalarType::Float8e5m2;
        case 28:
            return ScalarType::UInt16;
        default:
            return std::nullopt;
        }
    case DtypeTable::Torch8Current:
        switch (code) {
        case 28:
            return ScalarType::UInt16;
        case 29:
            return ScalarType::Float8e4m3fn;
        case 30:
            return ScalarType::Float8e5m2;
        case 31:
            return ScalarType::Float8e4m3fnuz;
        case 32:
            return ScalarType::Float8e5m2fnuz;
        case 34:
            return ScalarType::UInt32;
        case 35:
            return ScalarType::UInt64;
        default:
            return std::nullopt; // 33 float8_e8m0fnu has no ExecuTorch type
        }
    case DtypeTable::ExecuTorch:
        switch (code) {
        case 14:
            return ScalarType::UInt16;
        case 15:
            return ScalarType::Float8e5m2;
        case 16:
            return ScalarType::Float8e4m3fn;
        default:
            return std::nullopt;
        }
    }
    return std::nullopt;
}

int base64Value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

std::optional<std::vector<std::uint8_t>> decodeBase64(std::string_view s)
{
    std::vector<std::uint8_t> out;
    out.reserve(s.size() / 4 * 3);
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : s) {
        if (c == '=' || c == '\n' || c == '\r' || c == ' ')
            continue;
        const int v = base64Value(c);
        if (v < 0)
            return std::nullopt;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>((acc >> bits) & 0xff));
        }
    }
    return out;
}

namespace {

/** The node whose JSON path is the longest prefix of `path` (ending at a '.' or '[' boundary), or nullptr. */
const Node* nodeAtPath(const Graph& graph, std::string_view path)
{
    const Node* best = nullptr;
    for (const auto& n : graph.nodes) {
        if (n.jsonPath.empty() || !path.starts_with(n.jsonPath))
            continue;
        if (path.size() > n.jsonPath.size() && path[n.jsonPath.size()] != '.' && path[n.jsonPath.size()] != '[')
            continue;
        if (!best || n.jsonPath.size() > best->jsonPath.size())
            best = &n;
    }
    return best;
}

} // namespace

Result<std::shared_ptr<ExportedProgram>> decodeProgram(
    std::string_view text, const std::string& source, Diagnostics& diags, std::uint64_t maxEntrySize)
{
    Diagnostics local;
    Decoder d(source, local);
    d.maxEntrySize = static_cast<std::int64_t>(std::min<std::uint64_t>(maxEntrySize, INT64_MAX));
    d.deferDtypes = true;
    std::shared_ptr<ExportedProgram> ep;
    try {
        json root;
        PTE_CHECK(parseJsonStreamed(
            text, source, root,
            [&](json&& item, std::size_t index, const std::string&) { d.onStreamedNode(std::move(item), index); },
            [&](json&& item, std::size_t, const std::string& key) { d.onStreamedTensorValue(std::move(item), key); }));
        auto r = d.program(root);
        if (!r)
            return std::move(r).error();
        ep = std::move(r).value();
    } catch (const std::exception& e) {
        // The decoder checks types before every access; this is a safety net at the library boundary.
        return fail(ErrorCode::InvalidInput, source + ": malformed exported program: " + e.what());
    }
    // Findings inside a node say which node (Diagnostic::location), for tools that navigate to it.
    for (auto& diag : local)
        if (diag.location.node.empty() && !diag.fieldPath.empty())
            if (const Node* at = nodeAtPath(ep->graph, diag.fieldPath))
                diag.location.node = at->name;
    // The program keeps its own findings; the caller collects them for the whole dump.
    ep->diagnostics = local;
    diags.insert(diags.end(), local.begin(), local.end());
    return ep;
}

DtypeTable dtypeTableFor(const ExportedProgram& ep)
{
    if (ep.executorchSerde)
        return DtypeTable::ExecuTorch;
    return ep.schemaMajor <= 7 ? DtypeTable::TorchUpTo7
        : ep.schemaMinor < 7   ? DtypeTable::Torch8Early
                               : DtypeTable::Torch8Current;
}

/** A decoder for TensorMeta JSON embedded in `ep`'s pickles (fake tensors), with the program's dtype table. */
Decoder metaDecoder(const ExportedProgram& ep, const std::string& label, Diagnostics& diags)
{
    Decoder dec(label, diags);
    dec.table = dtypeTableFor(ep);
    dec.executorchSerde = ep.executorchSerde;
    return dec;
}

} // namespace dump

Result<std::shared_ptr<ExportedProgram>> parseExportedProgramJson(std::string_view json, const std::string& sourceName)
{
    Diagnostics diags;
    PTE_TRY(auto ep, dump::decodeProgram(json, sourceName, diags, std::uint64_t(64) << 30));
    dump::computeMissingWeights(*ep);
    return ep;
}

} // namespace pte
