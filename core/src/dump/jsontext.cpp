// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/jsontext.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

namespace pte::dump {

namespace {

// ---------------------------------------------------------------------------------------------------------------
// JSON text -> DOM. Older torch and ExecuTorch's serde dump with Python's default allow_nan, which writes the
// bare tokens Infinity, -Infinity and NaN; standard JSON (and nlohmann) rejects them. They are rewritten into
// the string spellings newer torch uses ("Infinity"), which the float decoders accept.

// Records where the parser failed, without exceptions.
/** Deeper documents are refused: nothing in the schema nests that far, and recursive consumers would overflow. */
constexpr int kMaxJsonDepth = 512;

struct ErrorSax : nlohmann::detail::json_sax_dom_parser<json>
{
    using Base = nlohmann::detail::json_sax_dom_parser<json>;
    explicit ErrorSax(json& j)
        : Base(j, false)
    { }
    std::optional<Error> abortError; ///< unused here; StreamSax sets it
    bool tooDeep = false;
    int depth = 0;
    bool start_object(std::size_t n) { return enter() && Base::start_object(n); }
    bool start_array(std::size_t n) { return enter() && Base::start_array(n); }
    bool end_object()
    {
        --depth;
        return Base::end_object();
    }
    bool end_array()
    {
        --depth;
        return Base::end_array();
    }
    bool enter()
    {
        tooDeep = ++depth > kMaxJsonDepth;
        return !tooDeep;
    }
    bool parse_error(std::size_t pos, const std::string&, const nlohmann::detail::exception& ex)
    {
        errorPos = pos;
        errorText = ex.what();
        return false;
    }
    std::size_t errorPos = 0;
    std::string errorText;
};

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/** Rewrites bare Infinity/-Infinity/NaN tokens outside string literals; `inserted` records each position. */
bool rewriteNonFinite(std::string_view text, std::string& out, std::vector<std::size_t>& inserted)
{
    if (text.find("Infinity") == std::string_view::npos && text.find("NaN") == std::string_view::npos)
        return false; // the common case: nothing to look at
    bool inString = false;
    bool any = false;
    std::size_t copied = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            continue;
        }
        std::size_t len = 0;
        if (c == 'I' && text.compare(i, 8, "Infinity") == 0)
            len = 8;
        else if (c == '-' && text.compare(i, 9, "-Infinity") == 0)
            len = 9;
        else if (c == 'N' && text.compare(i, 3, "NaN") == 0)
            len = 3;
        if (len == 0 || (i > 0 && isIdentChar(text[i - 1])) || (i + len < text.size() && isIdentChar(text[i + len])))
            continue;
        if (!any) {
            out.reserve(text.size() + 64);
            any = true;
        }
        out.append(text.substr(copied, i - copied));
        out.push_back('"');
        out.append(text.substr(i, len));
        out.push_back('"');
        inserted.push_back(i);
        copied = i + len;
        i += len - 1;
    }
    if (any)
        out.append(text.substr(copied));
    return any;
}

/** Runs a SAX parser (ErrorSax or a subclass) over the text; maps error positions back to the original bytes. */
template <typename Sax> Result<void> runSax(std::string_view text, const std::string& source, Sax& sax)
{
    std::string rewritten;
    std::vector<std::size_t> inserted;
    const bool changed = rewriteNonFinite(text, rewritten, inserted);
    const std::string_view input = changed ? std::string_view(rewritten) : text;
    bool ok = false;
    try {
        ok = json::sax_parse(input.begin(), input.end(), &sax);
    } catch (const std::exception& e) {
        return fail(ErrorCode::InvalidInput, source + ": cannot parse JSON: " + e.what());
    }
    if (!ok) {
        if (sax.abortError)
            return *sax.abortError;
        if (sax.tooDeep)
            return fail(ErrorCode::InvalidInput,
                source + ": the JSON nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        // Map the position back to the original text (each rewrite added two quote characters).
        std::size_t pos = sax.errorPos > 0 ? sax.errorPos - 1 : 0;
        std::size_t shift = 0;
        for (std::size_t p : inserted)
            if (p + 2 * shift < pos)
                ++shift;
        pos -= std::min(pos, 2 * shift);
        const bool truncated = pos + 1 >= text.size();
        return fail(truncated ? ErrorCode::Truncated : ErrorCode::InvalidInput,
            source + ": " + (truncated ? "the JSON text ends early" : "invalid JSON") + " at byte "
                + std::to_string(pos) + " (" + sax.errorText + ")",
            pos);
    }
    return {};
}

/**
 * Builds the DOM of an exported program except for the two big collections of the top-level graph,
 * graph_module.graph.nodes[*] and graph_module.graph.tensor_values.*: each of their elements is built as a
 * small DOM of its own, handed to a callback (which decodes it into the model) and freed. Peak memory is
 * then the model plus one node, not a DOM of the whole document (several times the text size).
 */
class StreamSax
{
public:
    using Dom = nlohmann::detail::json_sax_dom_parser<json>;
    using ItemFn = std::function<void(json&& item, std::size_t index, const std::string& key)>;

    StreamSax(const std::string& source, json& root, ItemFn onNode, ItemFn onTensorValue)
        : m_source(source)
        , m_skeleton(root, false)
        , m_onNode(std::move(onNode))
        , m_onTensorValue(std::move(onTensorValue))
    { }

    std::size_t errorPos = 0;
    std::string errorText;
    std::optional<Error> abortError;
    bool tooDeep = false;

    bool null()
    {
        return scalar([](Dom& d) { return d.null(); });
    }
    bool boolean(bool v)
    {
        return scalar([&](Dom& d) { return d.boolean(v); });
    }
    bool number_integer(json::number_integer_t v)
    {
        return scalar([&](Dom& d) { return d.number_integer(v); });
    }
    bool number_unsigned(json::number_unsigned_t v)
    {
        return scalar([&](Dom& d) { return d.number_unsigned(v); });
    }
    bool number_float(json::number_float_t v, const json::string_t& s)
    {
        return scalar([&](Dom& d) { return d.number_float(v, s); });
    }
    bool string(json::string_t& v)
    {
        return scalar([&](Dom& d) { return d.string(v); });
    }
    bool binary(json::binary_t& v)
    {
        return scalar([&](Dom& d) { return d.binary(v); });
    }

    bool start_object(std::size_t n)
    {
        if (!enter())
            return false;
        if (m_sub) {
            ++m_subDepth;
            return m_sub->start_object(n);
        }
        if (atNodes())
            beginItem(Item::Node);
        else if (atTensorValues())
            beginItem(Item::TensorValue);
        if (m_sub) {
            m_subDepth = 1;
            return m_sub->start_object(n);
        }
        m_frames.push_back({ true, {} });
        return m_skeleton.start_object(n);
    }
    bool key(json::string_t& k)
    {
        if (m_sub)
            return m_sub->key(k);
        m_frames.back().key = k;
        if (atTensorValues())
            return true; // the entry is streamed; the skeleton keeps an empty tensor_values object
        return m_skeleton.key(k);
    }
    bool end_object()
    {
        if (m_sub) {
            const bool r = m_sub->end_object();
            if (--m_subDepth == 0)
                endItem();
            return r;
        }
        m_frames.pop_back();
        return m_skeleton.end_object();
    }
    bool start_array(std::size_t n)
    {
        if (!enter())
            return false;
        if (m_sub) {
            ++m_subDepth;
            return m_sub->start_array(n);
        }
        if (atNodes() || atTensorValues())
            return refuse("an array");
        m_frames.push_back({ false, {} });
        return m_skeleton.start_array(n);
    }
    bool end_array()
    {
        if (m_sub) {
            const bool r = m_sub->end_array();
            if (--m_subDepth == 0)
                endItem();
            return r;
        }
        m_frames.pop_back();
        return m_skeleton.end_array();
    }
    bool parse_error(std::size_t pos, const std::string&, const nlohmann::detail::exception& ex)
    {
        errorPos = pos;
        errorText = ex.what();
        return false;
    }

    std::size_t nodeCount() const noexcept { return m_nodeIndex; }

private:
    bool enter()
    {
        tooDeep = m_frames.size() + static_cast<std::size_t>(m_subDepth) >= static_cast<std::size_t>(kMaxJsonDepth);
        return !tooDeep;
    }

    enum class Item
    {
        Node,
        TensorValue
    };
    struct Frame
    {
        bool object = false;
        std::string key;
    };

    // root{graph_module} > graph_module{graph} > graph{nodes|tensor_values} > nodes[ / tensor_values{
    bool inGraph() const
    {
        return m_frames.size() == 4 && m_frames[0].key == "graph_module" && m_frames[1].key == "graph"
            && m_frames[0].object && m_frames[1].object && m_frames[2].object;
    }
    bool atNodes() const { return inGraph() && m_frames[2].key == "nodes" && !m_frames[3].object; }
    bool atTensorValues() const { return inGraph() && m_frames[2].key == "tensor_values" && m_frames[3].object; }

    template <typename F> bool scalar(F&& f)
    {
        if (m_sub) {
            const bool r = f(*m_sub);
            if (m_subDepth == 0)
                endItem();
            return r;
        }
        if (atNodes() || atTensorValues())
            return refuse("a scalar");
        return f(m_skeleton);
    }
    bool refuse(const char* what)
    {
        const std::string path = atNodes() ? "graph_module.graph.nodes[" + std::to_string(m_nodeIndex) + "]"
                                           : "graph_module.graph.tensor_values." + m_frames.back().key;
        abortError = makeError(ErrorCode::InvalidInput,
            m_source + ": expected " + std::string(atNodes() ? "a node object" : "a TensorMeta object") + ", found "
                + what + " at " + path,
            {}, path);
        return false;
    }
    void beginItem(Item kind)
    {
        m_item = json();
        m_kind = kind;
        m_sub.emplace(m_item, false);
    }
    void endItem()
    {
        m_sub.reset();
        json item = std::move(m_item);
        m_item = json();
        if (m_kind == Item::Node)
            m_onNode(std::move(item), m_nodeIndex++, {});
        else
            m_onTensorValue(std::move(item), 0, m_frames.back().key);
    }

    const std::string& m_source;
    Dom m_skeleton;
    ItemFn m_onNode;
    ItemFn m_onTensorValue;
    std::vector<Frame> m_frames;
    std::optional<Dom> m_sub;
    json m_item;
    Item m_kind = Item::Node;
    int m_subDepth = 0;
    std::size_t m_nodeIndex = 0;
};

} // namespace

Result<json> parseJsonText(std::string_view text, const std::string& source)
{
    json root;
    ErrorSax sax(root);
    PTE_CHECK(runSax(text, source, sax));
    return root;
}
Result<void> parseJsonStreamed(
    std::string_view text, const std::string& source, json& root, JsonItemFn onNode, JsonItemFn onTensorValue)
{
    StreamSax sax(source, root, std::move(onNode), std::move(onTensorValue));
    return runSax(text, source, sax);
}

const json& nullJson()
{
    static const json n;
    return n;
}

const json& field(const json& j, const char* key)
{
    if (!j.is_object())
        return nullJson();
    const auto it = j.find(key);
    return it == j.end() ? nullJson() : *it;
}

std::string describe(const json& j)
{
    switch (j.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::object:
        return "an object";
    case json::value_t::array:
        return "an array";
    case json::value_t::string:
        return "a string";
    case json::value_t::boolean:
        return "a boolean";
    case json::value_t::number_float:
        return "a float";
    default:
        return "an integer";
    }
}

} // namespace pte::dump
