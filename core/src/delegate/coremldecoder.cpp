// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Core ML payloads (docs/delegate-payloads.md, Core ML): the flattened file tree with its byte-reversed JSON index at
// the end (form A), or a CMJR reference to a shared blob in named data (form B). The model is listed, never run:
// the file tree with sizes, metadata.json (inputs, outputs, identifier), the Manifest, and the operations of
// debug_info.json (each debug symbol "<output>:<operator>" with its edge debug handles) as inner nodes.
#include "payloaddecoders.h"

#include <nlohmann/json.hpp>
#include <set>

namespace pte::delegate {

namespace {

using Json = nlohmann::ordered_json;

/** JSON text larger than this is not parsed (the index and the metadata files are a few KiB to a few MiB). */
constexpr std::uint64_t kMaxJsonBytes = std::uint64_t(64) << 20;

Json parseJson(std::span<const std::uint8_t> text)
{
    if (text.size() > kMaxJsonBytes)
        return Json(nlohmann::json::value_t::discarded);
    return Json::parse(text.begin(), text.end(), nullptr, false);
}

std::string stringAt(const Json& j, const char* key)
{
    if (!j.is_object())
        return {};
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::uint64_t> unsignedAt(const Json& j, const char* key)
{
    if (!j.is_object())
        return std::nullopt;
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()
        || (it->is_number_integer() && !it->is_number_unsigned() && it->get<std::int64_t>() < 0))
        return std::nullopt;
    return it->get<std::uint64_t>();
}

std::string stringList(const Json& j, const char* key)
{
    std::string s;
    if (!j.is_object())
        return s;
    const auto it = j.find(key);
    if (it == j.end() || !it->is_array())
        return s;
    for (const auto& e : *it)
        if (e.is_string())
            s += (s.empty() ? "" : ", ") + e.get<std::string>();
    return s;
}

class CoreMlDecoder
{
public:
    CoreMlDecoder(DelegatePayload& out, const DecodeContext& ctx)
        : m_out(out)
        , m_ctx(ctx)
    { }

    /** Form A, over `blob` (the payload itself, or the named-data blob a CMJR reference points to). */
    void decodeTree(const Bytes& blob, const std::string& fieldPrefix)
    {
        const auto b = blob.span();
        // The index is JSON written backwards: scan from the last byte (its opening brace) until the braces balance.
        std::int64_t depth = 0;
        std::size_t start = b.size();
        bool inString = false;
        for (std::size_t i = b.size(); i-- > 0;) {
            const std::uint8_t c = b[i];
            if (c == '"' && !(i > 0 && b[i - 1] == '\\'))
                inString = !inString;
            if (inString)
                continue;
            if (c == '{')
                ++depth;
            else if (c == '}')
                --depth;
            if (depth == 0) {
                start = i;
                break;
            }
        }
        if (start == b.size()) {
            report(m_out, m_ctx, Severity::Error, ErrorCode::Truncated,
                "the Core ML file index (reversed JSON at the end of the payload) never closes", b.size() - 1,
                fieldPrefix + "index");
            return;
        }
        std::vector<std::uint8_t> text(b.rbegin(), b.rbegin() + std::ptrdiff_t(b.size() - start));
        const Json index = parseJson(text);
        m_out.regions.push_back({ "file data", 0, start });
        m_out.regions.push_back({ "file index (reversed JSON)", start, b.size() - start });
        addField(m_out, "file index offset", std::to_string(start));
        if (index.is_discarded() || !index.is_object() || !index.contains("nodes") || !index["nodes"].is_array()) {
            report(m_out, m_ctx, Severity::Error, ErrorCode::InvalidInput,
                "the Core ML file index is not the expected JSON object with a \"nodes\" array", start,
                fieldPrefix + "index");
            return;
        }
        const Json& nodes = index["nodes"];
        std::vector<bool> isChild(nodes.size(), false);
        for (const auto& n : nodes)
            if (n.is_object() && n.contains("children") && n["children"].is_object())
                for (const auto& [name, idx] : n["children"].items())
                    if (idx.is_number_unsigned() && idx.get<std::uint64_t>() < nodes.size())
                        isChild[idx.get<std::size_t>()] = true;
        std::set<std::size_t> visited;
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (!isChild[i])
                walk(blob, nodes, i, "", start, visited, 0);
        addField(m_out, "files", std::to_string(fileCount()));
        readKnownFiles(blob);
    }

    void decodeReference()
    {
        const auto b = m_out.bytes.span();
        const Json ref = parseJson(b.subspan(4));
        if (ref.is_discarded() || !ref.is_object()) {
            report(m_out, m_ctx, Severity::Error, ErrorCode::InvalidInput,
                "the CMJR reference is not followed by a JSON object", 4);
            return;
        }
        const std::string key = stringAt(ref, "key");
        addField(m_out, "reference key", key);
        addField(m_out, "function name", stringAt(ref, "functionName"));
        if (const auto v = unsignedAt(ref, "version"))
            addField(m_out, "reference version", std::to_string(*v));
        ConstantSource source = ConstantSource::Missing;
        const auto blob = key.empty() ? std::nullopt : findNamedData(m_ctx.sources, key, source);
        if (!blob) {
            report(m_out, m_ctx, Severity::Warning, ErrorCode::OutOfRange,
                "the shared Core ML blob '" + key + "' is neither in the program's named data nor in an external .ptd",
                4, "key");
            return;
        }
        addField(m_out, "shared blob", std::string(constantSourceName(source)) + ", " + sizeText(blob->size()));
        decodeTree(*blob, "shared blob ");
    }

private:
    std::size_t fileCount() const
    {
        std::size_t n = 0;
        for (const auto& f : m_out.files)
            n += f.directory ? 0 : 1;
        return n;
    }

    void walk(const Bytes& blob, const Json& nodes, std::size_t i, const std::string& parent, std::uint64_t dataEnd,
        std::set<std::size_t>& visited, int depth)
    {
        if (!visited.insert(i).second || depth > 64) {
            report(m_out, m_ctx, Severity::Error, ErrorCode::InvalidInput,
                "the Core ML file index has a cycle or is nested too deeply (node " + std::to_string(i) + ")",
                std::nullopt, "nodes[" + std::to_string(i) + "]");
            return;
        }
        const Json& n = nodes[i];
        PayloadFile f;
        const std::string name = stringAt(n, "name");
        f.path = parent.empty() ? name : parent + "/" + name;
        const auto kind = unsignedAt(n, "kind");
        f.directory = kind && *kind == 1;
        if (!f.directory && n.is_object() && n.contains("dataRegion")) {
            const auto& region = n["dataRegion"];
            f.offset = unsignedAt(region, "offset").value_or(0);
            f.size = unsignedAt(region, "size").value_or(0);
            if (!inBounds(f.offset, f.size, dataEnd))
                report(m_out, m_ctx, Severity::Error, ErrorCode::Truncated,
                    "the Core ML file '" + f.path + "' at [" + std::to_string(f.offset) + ", +" + std::to_string(f.size)
                        + ") runs past the file data (" + std::to_string(dataEnd) + " bytes)",
                    f.offset, "nodes[" + std::to_string(i) + "].dataRegion");
            else
                m_fileBytes.emplace_back(f.path, blob.slice(std::size_t(f.offset), std::size_t(f.size)));
        }
        m_out.files.push_back(f);
        if (!f.directory || !n.contains("children") || !n["children"].is_object())
            return;
        for (const auto& [childName, idx] : n["children"].items())
            if (idx.is_number_unsigned() && idx.get<std::uint64_t>() < nodes.size())
                walk(blob, nodes, idx.get<std::size_t>(), f.path, dataEnd, visited, depth + 1);
    }

    const Bytes* file(std::string_view baseName) const
    {
        for (const auto& [path, bytes] : m_fileBytes) {
            const auto slash = path.rfind('/');
            if ((slash == std::string::npos ? std::string_view(path) : std::string_view(path).substr(slash + 1))
                == baseName)
                return &bytes;
        }
        return nullptr;
    }

    void readKnownFiles(const Bytes& blob)
    {
        (void)blob;
        if (const auto* meta = file("metadata.json")) {
            const Json j = parseJson(meta->span());
            addField(m_out, "input names", stringList(j, "inputNames"));
            addField(m_out, "output names", stringList(j, "outputNames"));
            addField(m_out, "identifier", stringAt(j, "identifier"));
        }
        for (const auto& f : m_out.files)
            if (f.directory && (f.path.ends_with(".mlpackage") || f.path.ends_with(".mlmodelc")))
                addField(
                    m_out, "model", f.path.substr(f.path.rfind('/') == std::string::npos ? 0 : f.path.rfind('/') + 1));
        if (const auto* model = file("model.mlmodel"))
            addField(m_out, "model.mlmodel", sizeText(model->size()));
        if (const auto* weights = file("weight.bin"))
            addField(m_out, "weight.bin", sizeText(weights->size()));
        if (const auto* manifest = file("Manifest.json")) {
            const Json j = parseJson(manifest->span());
            addField(m_out, "manifest format", stringAt(j, "fileFormatVersion"));
            addField(m_out, "root model identifier", stringAt(j, "rootModelIdentifier"));
        }
        if (const auto* mapping = file("executorch_debug_handle_mapping.json")) {
            const Json j = parseJson(mapping->span());
            if (j.is_object() && j.contains("mapping") && j["mapping"].is_object())
                addField(m_out, "debug handle mapping", std::to_string(j["mapping"].size()) + " handles");
        }
        if (const auto* debug = file("debug_info.json"))
            readDebugInfo(*debug);
    }

    /** Each debug symbol "<output>:<operator>" becomes an inner node carrying its edge debug handles. */
    void readDebugInfo(const Bytes& bytes)
    {
        const Json j = parseJson(bytes.span());
        if (!j.is_object()) {
            report(m_out, m_ctx, Severity::Warning, ErrorCode::InvalidInput, "debug_info.json is not a JSON object");
            return;
        }
        addField(m_out, "debug info version", stringAt(j, "versionInfo"));
        const Json empty = Json::object();
        const Json& paths = j.contains("debugSymbolToOperationPath") && j["debugSymbolToOperationPath"].is_object()
            ? j["debugSymbolToOperationPath"]
            : empty;
        const Json& handles = j.contains("debugSymbolToHandles") && j["debugSymbolToHandles"].is_object()
            ? j["debugSymbolToHandles"]
            : empty;
        const Json& order = paths.empty() ? handles : paths;
        for (const auto& [symbol, path] : order.items()) {
            InnerNode n;
            n.index = std::uint32_t(m_out.nodes.size());
            n.delegateDebugId = symbol;
            const auto colon = symbol.rfind(':');
            n.kind = colon == std::string::npos ? symbol : symbol.substr(colon + 1);
            n.params.push_back({ "output", colon == std::string::npos ? symbol : symbol.substr(0, colon) });
            const Json* p = paths.contains(symbol) ? &paths[symbol] : nullptr;
            if (p && p->is_array())
                for (const auto& step : *p)
                    if (stringAt(step, "Type") == "Function")
                        n.params.push_back({ "function", stringAt(step, "Name") });
            if (handles.contains(symbol) && handles[symbol].is_array())
                for (const auto& h : handles[symbol])
                    if (h.is_number_integer())
                        n.debugHandles.push_back(h.get<std::int64_t>());
            m_out.nodes.push_back(std::move(n));
        }
        addField(m_out, "operations", std::to_string(m_out.nodes.size()) + " (from debug_info.json)");
        m_out.graphDecoded = !m_out.nodes.empty();
    }

    DelegatePayload& m_out;
    const DecodeContext& m_ctx;
    std::vector<std::pair<std::string, Bytes>> m_fileBytes;
};

} // namespace

void decodeCoreMlTree(DelegatePayload& out, const DecodeContext& ctx)
{
    out.format = "Core ML file tree (reversed JSON index at the end)";
    CoreMlDecoder(out, ctx).decodeTree(out.bytes, "");
}

void decodeCoreMlReference(DelegatePayload& out, const DecodeContext& ctx)
{
    out.format = "Core ML CMJR reference to a shared blob";
    CoreMlDecoder(out, ctx).decodeReference();
}

} // namespace pte::delegate
