// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/lowering.h"

#include "pte/emitter.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace pte::emitcore {

namespace {

/**
 * Arguments bound by name. A call has a handful, so a vector searched linearly beats a std::map, which
 * allocated a node per argument of each of 100k calls. The interface is the part of std::map the lowering uses.
 */
class ArgMap
{
public:
    /** Names are schema argument names or literals: both outlive the map. */
    using value_type = std::pair<std::string_view, LArg>;
    using iterator = std::vector<value_type>::iterator;
    using const_iterator = std::vector<value_type>::const_iterator;

    ArgMap() = default;
    ArgMap(std::initializer_list<value_type> items)
        : m_items(items)
    { }

    iterator begin() { return m_items.begin(); }
    iterator end() { return m_items.end(); }
    const_iterator begin() const { return m_items.begin(); }
    const_iterator end() const { return m_items.end(); }
    iterator find(std::string_view name)
    {
        return std::find_if(m_items.begin(), m_items.end(), [&](const value_type& v) { return v.first == name; });
    }
    const_iterator find(std::string_view name) const
    {
        return std::find_if(m_items.begin(), m_items.end(), [&](const value_type& v) { return v.first == name; });
    }
    std::size_t count(std::string_view name) const { return find(name) == end() ? 0 : 1; }
    LArg& operator[](std::string_view name)
    {
        if (const auto it = find(name); it != end())
            return it->second;
        return m_items.emplace_back(name, LArg {}).second;
    }
    void reserve(std::size_t n) { m_items.reserve(n); }
    iterator erase(iterator it) { return m_items.erase(it); }
    std::size_t erase(std::string_view name)
    {
        const auto it = find(name);
        if (it == end())
            return 0;
        m_items.erase(it);
        return 1;
    }

private:
    std::vector<value_type> m_items;
};

/** A top-level tensor_values entry and the value defined under its name (-1: none yet). */
struct TopSlot
{
    const TensorMeta* meta = nullptr;
    int ref = -1;
};

/**
 * Tensor names to TopSlots: open addressing over one array of cache-line entries that hold the hash and, for
 * names up to 28 bytes (nearly all), the name itself, so a lookup usually touches one line. Keys view strings
 * the dump owns. A node-based map touched three (bucket, node, key) for each of the graph's few hundred
 * thousand lookups.
 */
class NameIndex
{
public:
    /** Room for `n` keys at most half full (a longer run of probes costs more than the memory). */
    void reserve(std::size_t n)
    {
        std::size_t capacity = 16;
        while (capacity < 2 * n)
            capacity *= 2;
        if (capacity <= m_entries.size())
            return;
        std::vector<Entry> old = std::exchange(m_entries, std::vector<Entry>(capacity));
        m_mask = capacity - 1;
        m_count = 0;
        for (const Entry& e : old)
            if (e.key)
                insert(std::string_view(e.key, e.size), e.slot);
    }
    /** Adds `key` unless present. The key's bytes must outlive the index. */
    void insert(std::string_view key, TopSlot slot)
    {
        if (2 * (m_count + 1) > m_entries.size())
            reserve(m_count + 1);
        const std::uint64_t h = hash(key);
        for (std::size_t i = h & m_mask;; i = (i + 1) & m_mask) {
            Entry& e = m_entries[i];
            if (!e.key) {
                e.hash = h;
                e.key = key.data();
                e.size = std::uint32_t(key.size());
                if (key.size() <= sizeof e.inlineKey)
                    std::memcpy(e.inlineKey, key.data(), key.size());
                e.slot = slot;
                ++m_count;
                return;
            }
            if (matches(e, h, key))
                return;
        }
    }
    TopSlot* find(std::string_view key)
    {
        const std::size_t i = locate(key);
        return i == kNone ? nullptr : &m_entries[i].slot;
    }
    const TopSlot* find(std::string_view key) const
    {
        const std::size_t i = locate(key);
        return i == kNone ? nullptr : &m_entries[i].slot;
    }

private:
    struct alignas(64) Entry
    {
        std::uint64_t hash = 0;
        TopSlot slot;
        const char* key = nullptr; ///< null: free
        std::uint32_t size = 0;
        char inlineKey[28] = {};
    };
    static constexpr std::size_t kNone = ~std::size_t(0);
    std::size_t locate(std::string_view key) const noexcept
    {
        if (m_entries.empty())
            return kNone;
        const std::uint64_t h = hash(key);
        for (std::size_t i = h & m_mask;; i = (i + 1) & m_mask) {
            const Entry& e = m_entries[i];
            if (!e.key)
                return kNone;
            if (matches(e, h, key))
                return i;
        }
    }
    static std::uint64_t hash(std::string_view key) noexcept { return std::hash<std::string_view> {}(key); }
    static bool matches(const Entry& e, std::uint64_t h, std::string_view key) noexcept
    {
        if (e.hash != h || e.size != key.size())
            return false;
        const char* stored = key.size() <= sizeof e.inlineKey ? e.inlineKey : e.key;
        return std::memcmp(stored, key.data(), key.size()) == 0;
    }
    std::vector<Entry> m_entries;
    std::size_t m_mask = 0;
    std::size_t m_count = 0;
};

} // namespace

std::uint64_t LValue::nbytes() const noexcept
{
    std::uint64_t n = elementSize(dtype);
    for (const auto s : sizes)
        n *= std::uint64_t(std::max<std::int32_t>(s, 0));
    return n;
}

// ---------------------------------------------------------------------------------------------------------
// Small helpers: targets, symbolic bounds, dim orders
// ---------------------------------------------------------------------------------------------------------

std::optional<TargetName> parseTarget(const std::string& target)
{
    std::string_view t = target;
    if (const auto cc = t.find("::"); cc != std::string_view::npos) {
        TargetName n;
        n.ns = std::string(t.substr(0, cc));
        auto rest = t.substr(cc + 2);
        const auto dot = rest.find('.');
        n.op = std::string(rest.substr(0, dot));
        if (dot != std::string_view::npos)
            n.overload = std::string(rest.substr(dot + 1));
        if (n.overload == "default")
            n.overload.clear();
        return n;
    }
    for (const std::string_view prefix :
        { "executorch.exir.dialects.edge.ops.", "executorch.exir.dialects.backend.ops.", "torch.ops.", "ops." }) {
        if (t.substr(0, prefix.size()) == prefix) {
            t.remove_prefix(prefix.size());
            break;
        }
    }
    const auto first = t.find('.');
    const auto last = t.rfind('.');
    if (first == std::string_view::npos)
        return std::nullopt;
    TargetName n;
    n.ns = std::string(t.substr(0, first));
    if (first == last) {
        n.op = std::string(t.substr(first + 1));
    } else {
        n.op = std::string(t.substr(first + 1, last - first - 1));
        n.overload = std::string(t.substr(last + 1));
    }
    if (n.overload == "default")
        n.overload.clear();
    return n;
}

namespace {

// A tiny evaluator for sympy text: infix ("2*s0 + 1") and srepr ("Mul(Integer(2), Symbol('s0', ...))").
// Symbols take their upper bound; only +, - (by constants) and * are accepted, which are monotone for sizes.
class SymEval
{
public:
    SymEval(std::string_view text, const std::map<std::string, RangeConstraint>& ranges)
        : m_s(text)
        , m_ranges(ranges)
    { }
    std::optional<std::int64_t> run()
    {
        auto v = expr();
        skip();
        if (!v || m_p != m_s.size())
            return std::nullopt;
        return v;
    }

private:
    void skip()
    {
        while (m_p < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_p])))
            ++m_p;
    }
    bool eat(char c)
    {
        skip();
        if (m_p < m_s.size() && m_s[m_p] == c) {
            ++m_p;
            return true;
        }
        return false;
    }
    std::optional<std::int64_t> expr()
    {
        auto v = term();
        while (v) {
            if (eat('+')) {
                auto r = term();
                if (!r)
                    return std::nullopt;
                *v += *r;
            } else if (eat('-')) {
                auto r = term();
                if (!r)
                    return std::nullopt;
                *v -= *r;
            } else
                break;
        }
        return v;
    }
    std::optional<std::int64_t> term()
    {
        auto v = factor();
        while (v) {
            skip();
            if (m_s.substr(m_p, 2) == "//") {
                m_p += 2;
                auto r = factor();
                if (!r || *r == 0)
                    return std::nullopt;
                *v /= *r;
            } else if (eat('*')) {
                auto r = factor();
                if (!r)
                    return std::nullopt;
                *v *= *r;
            } else
                break;
        }
        return v;
    }
    std::optional<std::int64_t> factor()
    {
        skip();
        if (eat('(')) {
            auto v = expr();
            if (!eat(')'))
                return std::nullopt;
            return v;
        }
        if (m_p < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_p]))) {
            std::int64_t v = 0;
            const auto r = std::from_chars(m_s.data() + m_p, m_s.data() + m_s.size(), v);
            m_p = std::size_t(r.ptr - m_s.data());
            return v;
        }
        std::string ident;
        while (m_p < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[m_p])) || m_s[m_p] == '_'))
            ident += m_s[m_p++];
        if (ident.empty())
            return std::nullopt;
        skip();
        if (m_p < m_s.size() && m_s[m_p] == '(') {
            // srepr call
            ++m_p;
            if (ident == "Symbol") {
                skip();
                if (m_p >= m_s.size() || (m_s[m_p] != '\'' && m_s[m_p] != '"'))
                    return std::nullopt;
                const char q = m_s[m_p++];
                const auto end = m_s.find(q, m_p);
                if (end == std::string_view::npos)
                    return std::nullopt;
                const std::string name(m_s.substr(m_p, end - m_p));
                m_p = end + 1;
                int depth = 1; // skip assumptions
                while (m_p < m_s.size() && depth > 0) {
                    if (m_s[m_p] == '(')
                        ++depth;
                    else if (m_s[m_p] == ')')
                        --depth;
                    ++m_p;
                }
                return symbol(name);
            }
            if (ident == "Integer") {
                auto v = expr();
                if (!eat(')'))
                    return std::nullopt;
                return v;
            }
            if (ident == "Add" || ident == "Mul") {
                std::optional<std::int64_t> acc = ident == "Add" ? 0 : 1;
                do {
                    auto v = expr();
                    if (!v)
                        return std::nullopt;
                    acc = ident == "Add" ? *acc + *v : *acc * *v;
                } while (eat(','));
                if (!eat(')'))
                    return std::nullopt;
                return acc;
            }
            return std::nullopt;
        }
        return symbol(ident);
    }
    std::optional<std::int64_t> symbol(const std::string& name)
    {
        const auto it = m_ranges.find(name);
        if (it == m_ranges.end() || !it->second.maxVal)
            return std::nullopt;
        return *it->second.maxVal;
    }

    std::string_view m_s;
    std::size_t m_p = 0;
    const std::map<std::string, RangeConstraint>& m_ranges;
};

} // namespace

std::optional<std::int64_t> symUpperBound(const SymInt& s, const std::map<std::string, RangeConstraint>& ranges)
{
    if (s.value)
        return s.value;
    if (s.expr.empty())
        return std::nullopt;
    return SymEval(s.expr, ranges).run();
}

namespace {

std::vector<std::uint8_t> dimOrderOf(std::span<const std::int64_t> strides)
{
    std::vector<std::uint8_t> order(strides.size());
    std::iota(order.begin(), order.end(), std::uint8_t(0));
    if (std::is_sorted(strides.begin(), strides.end(), std::greater<>()))
        return order; // contiguous (the common case): no sort needed
    std::stable_sort(
        order.begin(), order.end(), [&](std::uint8_t a, std::uint8_t b) { return strides[a] > strides[b]; });
    return order;
}

} // namespace

std::vector<std::uint8_t> dimOrderFromStrides(const std::vector<std::int64_t>& strides) { return dimOrderOf(strides); }

std::optional<std::int64_t> firstDebugHandle(const Node& n)
{
    if (!n.debugHandles.empty())
        return n.debugHandles[0];
    const auto it = n.metadata.find("debug_handle");
    if (it == n.metadata.end())
        return std::nullopt;
    std::int64_t v = 0;
    const auto& s = it->second;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc())
        return std::nullopt;
    return v;
}

// ---------------------------------------------------------------------------------------------------------
// The lowering of one method
// ---------------------------------------------------------------------------------------------------------

namespace {

std::string describeNode(const Node& n)
{
    std::string s = "node '" + n.name + "' (" + n.target + ")";
    return s;
}

/**
 * Where a lowering message points: a node (described by describeNode only when a message is built: most nodes
 * never need it) or a fixed text ("input 3", "node 'x' (...) body").
 */
class Where
{
public:
    Where() = default;
    Where(const Node& n) // NOLINT(google-explicit-constructor): a node is a place
        : m_node(&n)
    { }
    Where(std::string text) // NOLINT(google-explicit-constructor)
        : m_text(std::move(text))
    { }
    Where(const char* text) // NOLINT(google-explicit-constructor)
        : m_text(text)
    { }
    const std::string& str() const
    {
        if (m_node) {
            m_text = describeNode(*m_node);
            m_node = nullptr;
        }
        return m_text;
    }

private:
    mutable const Node* m_node = nullptr;
    mutable std::string m_text;
};

std::string operator+(std::string a, const Where& w) { return a += w.str(); }
std::string operator+(const Where& w, const char* b) { return w.str() + b; }

std::vector<std::int64_t> contiguousStrides(const std::vector<std::int32_t>& sizes)
{
    std::vector<std::int64_t> strides(sizes.size());
    std::int64_t st = 1;
    for (std::size_t i = sizes.size(); i-- > 0;) {
        strides[i] = st;
        st *= std::max<std::int64_t>(sizes[i], 1);
    }
    return strides;
}

/** How an operator's out tensor gets its dim order in ExecuTorch's edge dialect, where every node's metadata is
 *  re-derived by running the op's meta function on its inputs (to_edge), not copied from the exported graph. */
enum class LayoutRule : std::uint8_t
{
    Contiguous, ///< a new contiguous tensor (copies of views, matmuls, reductions, most other ops)
    KeepInput, ///< the layout of the first tensor input (pointwise ops, convolution, pooling, batch norm...)
    DimOrderArg, ///< dim_order_ops: the `dim_order` argument, or the input's when it is None
    MemoryFormatArg, ///< clone: the `memory_format` argument (contiguous), or the input's (preserve / None)
};

LayoutRule layoutRule(const OpSchema& s)
{
    // Ops whose PyTorch meta function keeps the memory format of their input (TensorIterator pointwise ops, and
    // those that allocate with the input's suggested memory format). Everything else writes contiguous tensors;
    // in particular every *_copy of a view op is `view(...).clone(contiguous_format)`.
    static const std::unordered_set<std::string_view> kKeep = { "abs", "acos", "acosh", "add", "asin", "asinh", "atan",
        "atan2", "atanh", "bitwise_and", "bitwise_left_shift", "bitwise_not", "bitwise_or", "bitwise_right_shift",
        "bitwise_xor", "ceil", "clamp", "copy", "copy_", "cos", "cosh", "div", "elu", "eq", "erf", "exp", "expm1",
        "fill", "floor", "floor_divide", "fmod", "ge", "gelu", "gt", "hardtanh", "isinf", "isnan", "le", "leaky_relu",
        "lift_fresh_copy", "log", "log10", "log1p", "log2", "logical_and", "logical_not", "logical_or", "logical_xor",
        "logit", "lt", "masked_fill", "maximum", "minimum", "mul", "ne", "neg", "pow", "reciprocal", "relu",
        "remainder", "round", "rsqrt", "rsub", "sigmoid", "sign", "sin", "sinh", "sqrt", "sub", "tan", "tanh", "trunc",
        "where", "convolution", "_native_batch_norm_legit_no_training", "max_pool2d_with_indices", "avg_pool2d",
        "_adaptive_avg_pool2d", "native_dropout", "full_like", "constant_pad_nd", "upsample_nearest2d",
        "upsample_bilinear2d", "_to_copy", "scalar_tensor", "glu", "_conj_physical" };
    if (s.ns == "dim_order_ops")
        return LayoutRule::DimOrderArg;
    if (s.ns == "aten" && s.name == "clone")
        return LayoutRule::MemoryFormatArg;
    if (s.ns == "aten" && kKeep.count(s.name))
        return LayoutRule::KeepInput;
    return LayoutRule::Contiguous;
}

/** A pointwise op: its output has the broadcast shape of its tensor inputs (among the KeepInput ops, not those
 *  computing a new shape: convolution, pooling, padding, upsampling, glu...). */
bool isPointwise(const OpSchema& s)
{
    static const std::unordered_set<std::string_view> kShaped = { "convolution", "_native_batch_norm_legit_no_training",
        "max_pool2d_with_indices", "avg_pool2d", "_adaptive_avg_pool2d", "constant_pad_nd", "upsample_nearest2d",
        "upsample_bilinear2d", "scalar_tensor", "glu", "copy_" };
    return layoutRule(s) == LayoutRule::KeepInput && !kShaped.count(s.name);
}

/** How a pointwise op's result dtype follows from its operands (torch's type promotion), where that is certain. */
enum class DtypeRule : std::uint8_t
{
    None, ///< not derived: the dump's dtype is kept
    Bool, ///< comparisons, logical ops, isinf/isnan: always bool
    Promote, ///< the operands' common dtype (one tensor dtype, raised by a scalar of a higher category)
    FloatOp, ///< as Promote, then an integral or bool result becomes the default float dtype (true division...)
};

DtypeRule dtypeRule(const OpSchema& s)
{
    static const std::unordered_set<std::string_view> kBool = { "eq", "ne", "lt", "le", "gt", "ge", "logical_and",
        "logical_or", "logical_xor", "logical_not", "isinf", "isnan" };
    static const std::unordered_set<std::string_view> kPromote = { "add", "sub", "rsub", "mul", "maximum", "minimum",
        "where", "neg", "abs", "remainder", "fmod", "floor_divide" };
    static const std::unordered_set<std::string_view> kFloat = { "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
        "cosh", "tanh", "asinh", "acosh", "atanh", "exp", "expm1", "log", "log10", "log1p", "log2", "sqrt", "rsqrt",
        "sigmoid", "erf", "reciprocal", "atan2" };
    if (s.ns != "aten")
        return DtypeRule::None;
    if (kBool.count(s.name))
        return DtypeRule::Bool;
    if (kPromote.count(s.name))
        return DtypeRule::Promote;
    if (kFloat.count(s.name) || (s.name == "div" && (s.overload == "out" || s.overload == "Scalar_out")))
        return DtypeRule::FloatOp;
    return DtypeRule::None;
}

/** torch's type categories: bool < integral < floating; -1 for the others (complex, quantized...). */
int dtypeCategory(ScalarType t)
{
    switch (t) {
    case ScalarType::Bool:
        return 0;
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
        return 1;
    case ScalarType::Half:
    case ScalarType::Float:
    case ScalarType::Double:
    case ScalarType::BFloat16:
        return 2;
    default:
        return -1;
    }
}

/** Numpy broadcasting of two shapes; nullopt when they do not broadcast. */
std::optional<std::vector<std::int32_t>> broadcastShapes(
    const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b)
{
    const std::size_t n = std::max(a.size(), b.size());
    std::vector<std::int32_t> out(n, 1);
    for (std::size_t k = 0; k < n; ++k) {
        const std::int32_t x = k + a.size() < n ? 1 : a[k + a.size() - n];
        const std::int32_t y = k + b.size() < n ? 1 : b[k + b.size() - n];
        if (x != y && x != 1 && y != 1)
            return std::nullopt;
        out[k] = x == 1 ? y : x;
    }
    return out;
}

bool isIdentity(const std::vector<std::uint8_t>& order, std::size_t rank)
{
    if (order.size() != rank)
        return false;
    for (std::size_t k = 0; k < rank; ++k)
        if (order[k] != k)
            return false;
    return true;
}

std::string showSizes(const std::vector<std::int32_t>& sizes)
{
    std::string s = "[";
    for (std::size_t k = 0; k < sizes.size(); ++k)
        s += (k ? ", " : "") + std::to_string(sizes[k]);
    return s + "]";
}

std::string showOrder(const std::vector<std::uint8_t>& order)
{
    std::string s = "[";
    for (std::size_t k = 0; k < order.size(); ++k)
        s += (k ? ", " : "") + std::to_string(order[k]);
    return s + "]";
}

class Lowering
{
public:
    Lowering(const ExportedProgram& ep, const std::string& method, const LoweringOptions& options)
        : m_ep(ep)
        , m_method(method)
        , m_options(options)
        , m_reg(SchemaRegistry::instance())
    { }

    Result<LoweredMethod> run();

private:
    // ---- values
    Result<int> newTensor(const std::string& name, const TensorMeta& meta, const Where& where);
    Result<int> newTensorFromName(const std::string& name, const Where& where);
    int newTemp(const std::string& name, ScalarType dtype, std::vector<std::int32_t> sizes,
        std::vector<std::uint8_t> dimOrder = {});
    int newSym(const std::string& name);
    Result<int> lookup(const std::string& name, const Where& where) const;
    const TensorMeta* findMeta(const std::string& name) const;
    void define(const std::string& name, int ref)
    {
        if (m_scopes.size() == 1) {
            if (TopSlot* slot = m_top.find(name)) {
                slot->ref = ref;
                return;
            }
        }
        m_scopes.back()[name] = ref;
    }

    // ---- arguments
    Result<LArg> convertArg(const Argument& a, const ArgType& t, const Where& where);
    Result<LArg> convertUntyped(const Argument& a, const Where& where);
    Result<LArg> defaultArg(const SchemaArg& a, const Where& where);
    Result<LArg> parseDefault(const SchemaArg& a, const Where& where);
    Result<IntElem> intElem(const Argument& a, std::size_t i, const Where& where);
    /** Binds a node's inputs to a schema: every argument, given or default, by name. */
    Result<ArgMap> bindArgs(const OpSchema& schema, const Node& n);
    Result<std::vector<int>> nodeOutputs(const Node& n);

    // ---- instructions
    Result<void> lowerNode(const Node& n);
    /** An operator target resolved to its schemas (cached per target: see resolve()). */
    struct ResolvedTarget
    {
        TargetName t;
        std::string q; ///< "aten::add"
        bool fromParts = false; ///< t came from Node::ns/op/overload rather than parsing the target
        const OpSchema* schema = nullptr; ///< the target's own schema (null: unknown operator)
        bool isView = false; ///< a view op, emitted as its *_copy form
        const OpSchema* viewSchema = nullptr;
    };
    /** The node's operator target, resolved; null when the target is not an operator name. */
    const ResolvedTarget* resolve(const Node& n);
    Result<void> lowerOp(const ResolvedTarget& r, const Node& n);
    Result<void> emitKernel(const OpSchema& schema, ArgMap given, const std::vector<int>& outs, const Node& n,
        const std::string& origin = {});
    /** Gives the out tensors of a kernel call the dim order ExecuTorch derives (LayoutRule) and, for pointwise ops,
     *  the broadcast shape of their inputs, reporting graph values whose dump metadata says otherwise. */
    void deriveLayouts(const LInstr& in, const Node& n);
    void info(const Node& n, const std::string& msg);
    /** The dim_order argument ExecuTorch's MemoryFormatOpsPass makes of the node's memory_format (torch serde codes):
     *  absent or contiguous_format -> contiguous, channels_last(_3d) -> [0, 2, 3, (4,) 1], preserve_format -> None. */
    Result<LArg> memoryFormatDimOrder(const Node& n, std::size_t rank) const;
    /** A view's size must keep the input's number of elements (torch refuses the view otherwise, and the runtime's
     *  view_copy then cannot size its output): checked exactly for static shapes, at the upper bounds otherwise. */
    Result<void> checkViewSize(const Node& n, int src, int out, const LArg& size);
    Result<void> emitFunctionalAsIs(const OpSchema& schema, const Node& n);
    Result<void> emitUnknown(const TargetName& t, const Node& n);
    Result<void> lowerSymOp(const Node& n);
    Result<void> lowerDelegate(const Node& n);
    Result<void> lowerCond(const Node& n);
    Result<void> lowerMap(const Node& n);
    Result<void> lowerScan(const Node& n);
    Result<void> lowerWithEffects(const Node& n);
    void closeLoop(const Node& n, int iter, int count, int loop);
    Result<void> lowerMemoryView(const Node& n);
    /**
     * Inlines a control-flow sub-graph: its placeholders bound to `operands`, its nodes lowered with debug
     * recording off. With `bindings`, each output differing from its binding is moved into it (MoveCall).
     * @returns the values of the sub-graph's outputs
     */
    Result<std::vector<int>> lowerSubgraph(
        const Graph& g, const std::vector<int>& operands, const std::vector<int>* bindings, const Where& where);
    /** The tensor values named by a tensor-list argument of a control-flow node. */
    Result<std::vector<int>> tensorRefs(const Node& n, const Argument& a);
    /** A control-flow scalar, not bound to any graph name (see LValue::symCounter). */
    int newCounter(const std::string& name, bool isBool = false);
    /** A new tensor value for a sub-graph placeholder that has no parent value (map/scan slices). */
    Result<int> newPlaceholderTensor(const Graph& g, std::size_t input, const Node& n);
    /** An argument referring to an existing value (Tensor or symbolic). */
    LArg ref(int r) const
    {
        LArg a;
        a.kind = m_out.values[std::size_t(r)].isSym ? LArg::Kind::ValueRef : LArg::Kind::Tensor;
        a.ref = r;
        return a;
    }
    /** A kernel call the emitter synthesises (control-flow plumbing): no debug handle, arguments as given. */
    void pushSynthetic(const Node& n, const char* op, const char* overload, std::vector<LArg> args);
    Result<bool> decompose(const TargetName& t, const Node& n);
    void alias(const Node& n, int ref);
    const OpSchema* schema(const char* qualified, const char* overload) const
    {
        return m_reg.find(qualified, overload);
    }
    Result<void> placeholders();
    Result<void> writeBacksAndOutputs();
    /// One warning naming the mutable buffers planned without their initial state (count, first few, the option).
    void warnPlannedWithoutState(const std::vector<std::string>& fqns);
    void computeLifetimes();
    Error nodeError(const Node& n, ErrorCode code, const std::string& what) const
    {
        return makeError(code, "method '" + m_method + "': " + this->where(n) + ": " + what, {}, n.jsonPath);
    }
    /** Where messages about `n` point: the node is described only when a message is built. */
    static Where where(const Node& n) { return Where(n); }
    static Error withPath(const Node& n, Error e)
    {
        if (e.fieldPath.empty())
            e.fieldPath = n.jsonPath;
        return e;
    }
    std::size_t m_layoutNotes = 0; ///< info diagnostics about re-derived dim orders so far
    struct OutputRule
    {
        LayoutRule layout;
        bool pointwise;
        DtypeRule dtype;
        std::array<int, 2> operands; ///< argument indices of self and other (-1: none), for the dtype
    };
    std::unordered_map<const OpSchema*, OutputRule> m_outputRules; ///< by schema
    void warn(const std::string& msg, const std::string& path = {})
    {
        Diagnostic d;
        d.severity = Severity::Warning;
        d.code = ErrorCode::Unsupported;
        d.message = "method '" + m_method + "': " + msg;
        d.fieldPath = path;
        d.file = m_ep.source;
        m_out.warnings.push_back(std::move(d));
    }

    const ExportedProgram& m_ep;
    std::string m_method;
    LoweringOptions m_options;
    const SchemaRegistry& m_reg;
    LoweredMethod m_out;
    std::vector<std::unordered_map<std::string, int>> m_scopes;
    std::vector<const Graph*> m_graphs;
    int m_labels = 0;
    int m_temps = 0;
    bool m_recordDebug = true;
    std::set<std::string> m_trainable; ///< parameter FQNs with gradients (joint graphs)
    /** Every top-level tensor name: one lookup finds a tensor's metadata and, later, its value (a std::map, then
     *  node-based hash maps, were the hot spots of big graphs). Names that are not tensors (symbols, sub-graph
     *  names) live in m_scopes. */
    NameIndex m_top;
    std::unordered_map<const SchemaArg*, LArg> m_defaults; ///< defaultArg() results (schemas are static)
    std::unordered_map<std::string_view, ResolvedTarget> m_resolved; ///< by Node::target (nodes outlive this)
};

Result<int> Lowering::newTensor(const std::string& name, const TensorMeta& meta, const Where& where)
{
    if (meta.deviceType != "cpu") {
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': tensor '" + name + "' (" + where + ") is on device " + meta.deviceType
                + (meta.deviceIndex ? ":" + std::to_string(*meta.deviceIndex) : std::string())
                + "; ptelens emits programs for ExecuTorch's CPU runtime only");
    }
    if (meta.layout != 7) {
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': tensor '" + name + "' (" + where + ") has layout code "
                + std::to_string(meta.layout) + "; only strided tensors can be emitted");
    }
    if (!isValidScalarType(static_cast<std::int8_t>(meta.dtype)) || elementSize(meta.dtype) == 0)
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': tensor '" + name + "' has a dtype ExecuTorch does not support (code "
                + std::to_string(meta.rawDtype) + ")");
    if (meta.sizes.size() > 16)
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': tensor '" + name + "' has rank " + std::to_string(meta.sizes.size())
                + " (ExecuTorch allows at most 16)");
    // Built in place (a failure below abandons the whole lowering, so a half-built value is never used).
    const int id = int(m_out.values.size());
    LValue& v = m_out.values.emplace_back();
    v.name = name;
    v.dtype = meta.dtype;
    v.requiresGrad = meta.requiresGrad;
    v.fromDump = true;
    v.sizes.reserve(meta.sizes.size());
    for (std::size_t d = 0; d < meta.sizes.size(); ++d) {
        const auto& s = meta.sizes[d];
        if (!s.isConcrete())
            v.dynamism = ShapeDynamism::DynamicBound;
        const auto ub = symUpperBound(s, m_ep.rangeConstraints);
        if (!ub) {
            return fail(ErrorCode::Unsupported,
                "method '" + m_method + "': dimension " + std::to_string(d) + " of tensor '" + name + "' is '" + s.expr
                    + "', which has no upper bound in range_constraints; ExecuTorch plans dynamic tensors at "
                      "their upper bound");
        }
        if (*ub < 0 || *ub > std::numeric_limits<std::int32_t>::max())
            return fail(ErrorCode::InvalidInput,
                "method '" + m_method + "': dimension " + std::to_string(d) + " of tensor '" + name + "' is "
                    + std::to_string(*ub) + ", outside what a .pte can hold");
        v.sizes.push_back(std::int32_t(*ub));
    }
    {
        // nbytes must fit comfortably in 64 bits (the planner adds offsets to it).
        std::uint64_t bytes = elementSize(v.dtype);
        for (const auto sz : v.sizes) {
            if (sz != 0 && bytes > (std::uint64_t(1) << 62) / std::uint64_t(sz))
                return fail(ErrorCode::InvalidInput,
                    "method '" + m_method + "': tensor '" + name + "' (" + where + ") is too large to plan");
            bytes *= std::uint64_t(sz);
        }
    }
    std::array<std::int64_t, 16> strides {}; // rank <= 16 (checked above)
    bool stridesOk = meta.strides.size() == meta.sizes.size();
    for (std::size_t d = 0; stridesOk && d < meta.strides.size(); ++d) {
        auto st = meta.strides[d].value ? meta.strides[d].value : meta.strides[d].hint;
        if (!st)
            st = symUpperBound(meta.strides[d], m_ep.rangeConstraints);
        if (!st)
            stridesOk = false;
        else
            strides[d] = *st;
    }
    v.dimOrder = stridesOk ? dimOrderOf(std::span<const std::int64_t>(strides.data(), meta.strides.size()))
                           : dimOrderFromStrides(contiguousStrides(v.sizes));
    return id;
}

const TensorMeta* Lowering::findMeta(const std::string& name) const
{
    if (m_graphs.size() == 1) {
        const TopSlot* slot = m_top.find(name);
        return slot ? slot->meta : nullptr;
    }
    for (auto g = m_graphs.rbegin(); g != m_graphs.rend(); ++g) {
        const auto it = (*g)->tensorValues.find(name);
        if (it != (*g)->tensorValues.end())
            return &it->second;
    }
    return nullptr;
}

Result<int> Lowering::newTensorFromName(const std::string& name, const Where& where)
{
    // At the top level one slot gives the metadata and takes the value.
    TopSlot* slot = m_graphs.size() == 1 && m_scopes.size() == 1 ? m_top.find(name) : nullptr;
    const TensorMeta* meta = slot ? slot->meta : findMeta(name);
    if (!meta)
        return fail(ErrorCode::InvalidInput,
            "method '" + m_method + "': " + where + ": tensor '" + name + "' has no entry in tensor_values");
    PTE_TRY(const int id, newTensor(name, *meta, where));
    if (slot)
        slot->ref = id;
    else
        define(name, id);
    return id;
}

int Lowering::newTemp(
    const std::string& name, ScalarType dtype, std::vector<std::int32_t> sizes, std::vector<std::uint8_t> dimOrder)
{
    LValue v;
    v.name = name + "_tmp" + std::to_string(m_temps++);
    v.dtype = dtype;
    if (dimOrder.empty()) {
        dimOrder.resize(sizes.size());
        std::iota(dimOrder.begin(), dimOrder.end(), std::uint8_t(0));
    }
    v.sizes = std::move(sizes);
    v.dimOrder = std::move(dimOrder);
    m_out.values.push_back(std::move(v));
    return int(m_out.values.size() - 1);
}

int Lowering::newSym(const std::string& name)
{
    LValue v;
    v.isSym = true;
    v.name = name;
    v.storage = LValue::Storage::Unplanned;
    m_out.values.push_back(std::move(v));
    const int id = int(m_out.values.size() - 1);
    define(name, id);
    return id;
}

Result<int> Lowering::lookup(const std::string& name, const Where& where) const
{
    for (auto s = m_scopes.rbegin(); s != m_scopes.rend(); ++s) {
        if (s + 1 == m_scopes.rend()) {
            const TopSlot* slot = m_top.find(name);
            if (slot && slot->ref >= 0)
                return slot->ref;
        }
        const auto it = s->find(name);
        if (it != s->end())
            return it->second;
    }
    return fail(ErrorCode::InvalidInput,
        "method '" + m_method + "': " + where + " uses '" + name + "', which no earlier node or input defines");
}

Result<IntElem> Lowering::intElem(const Argument& a, std::size_t i, const Where& where)
{
    if (i < a.syms.size()) {
        const auto& s = a.syms[i];
        if (s.value)
            return IntElem { *s.value, -1 };
        PTE_TRY(const int r, lookup(s.expr, where));
        return IntElem { 0, r };
    }
    if (i < a.ints.size())
        return IntElem { a.ints[i], -1 };
    if (i < a.names.size() && !a.names[i].empty()) {
        PTE_TRY(const int r, lookup(a.names[i], where));
        return IntElem { 0, r };
    }
    return fail(ErrorCode::InvalidInput, "method '" + m_method + "': " + where + ": malformed integer list");
}

Result<LArg> Lowering::convertUntyped(const Argument& a, const Where& where)
{
    LArg r;
    switch (a.kind) {
    case ArgKind::None:
        return r;
    case ArgKind::Tensor:
    case ArgKind::OptionalTensor: {
        if (a.names.empty() || a.names[0].empty())
            return r;
        PTE_TRY(r.ref, lookup(a.names[0], where));
        r.kind = m_out.values[std::size_t(r.ref)].isSym ? LArg::Kind::ValueRef : LArg::Kind::Tensor;
        return r;
    }
    case ArgKind::Tensors:
    case ArgKind::OptionalTensors: {
        r.kind = a.kind == ArgKind::Tensors ? LArg::Kind::TensorList : LArg::Kind::OptionalTensorList;
        for (const auto& nm : a.names) {
            if (nm.empty()) {
                r.kind = LArg::Kind::OptionalTensorList;
                r.refs.push_back(-1);
                continue;
            }
            PTE_TRY(const int ref, lookup(nm, where));
            r.refs.push_back(ref);
        }
        return r;
    }
    case ArgKind::Int:
    case ArgKind::ScalarType:
    case ArgKind::MemoryFormat:
    case ArgKind::Layout:
        r.kind = LArg::Kind::Int;
        r.i = a.kind == ArgKind::ScalarType && a.scalarType ? std::int64_t(*a.scalarType)
                                                            : (a.ints.empty() ? 0 : a.ints[0]);
        return r;
    case ArgKind::SymInt:
    case ArgKind::SymBool:
    case ArgKind::SymFloat: {
        if (a.kind == ArgKind::SymFloat && a.syms.empty() && a.names.empty()) {
            r.kind = LArg::Kind::Double;
            r.d = a.floats.empty() ? 0.0 : a.floats[0];
            return r;
        }
        PTE_TRY(const auto e, intElem(a, 0, where));
        if (e.ref < 0) {
            r.kind = a.kind == ArgKind::SymBool ? LArg::Kind::Bool : LArg::Kind::Int;
            r.i = e.literal;
            r.b = e.literal != 0;
        } else {
            r.kind = LArg::Kind::ValueRef;
            r.ref = e.ref;
        }
        return r;
    }
    case ArgKind::Ints:
    case ArgKind::SymInts: {
        r.kind = LArg::Kind::IntList;
        const std::size_t n = std::max({ a.ints.size(), a.syms.size(), a.names.size() });
        for (std::size_t i = 0; i < n; ++i) {
            PTE_TRY(const auto e, intElem(a, i, where));
            r.ints.push_back(e);
        }
        return r;
    }
    case ArgKind::Float:
        r.kind = LArg::Kind::Double;
        r.d = a.floats.empty() ? 0.0 : a.floats[0];
        return r;
    case ArgKind::Floats:
        r.kind = LArg::Kind::DoubleList;
        r.rare.emplace().ds = a.floats;
        return r;
    case ArgKind::Bool:
        r.kind = LArg::Kind::Bool;
        r.b = !a.bools.empty() && a.bools[0];
        return r;
    case ArgKind::Bools:
        // Python infers int lists for bools when no schema type is known (bool is an int).
        r.kind = LArg::Kind::IntList;
        for (const bool b : a.bools)
            r.ints.push_back({ b ? 1 : 0, -1 });
        return r;
    case ArgKind::String:
        r.kind = LArg::Kind::String;
        r.rare.emplace().s = a.strings.empty() ? std::string() : a.strings[0];
        return r;
    default:
        break;
    }
    return fail(ErrorCode::Unsupported,
        "method '" + m_method + "': " + where + ": unsupported constant type " + argKindName(a.kind));
}

Result<LArg> Lowering::convertArg(const Argument& a, const ArgType& t, const Where& where)
{
    LArg r;
    if (a.kind == ArgKind::None) {
        if (t.base == BaseType::Tensor && !t.optional && !t.isList)
            r.kind = LArg::Kind::PlaceholderTensor;
        return r;
    }
    if (t.isList) {
        switch (t.base) {
        case BaseType::Tensor: {
            PTE_TRY(r, convertUntyped(a, where));
            if (r.kind == LArg::Kind::Tensor) {
                r.refs = { r.ref };
                r.kind = LArg::Kind::TensorList;
            }
            if (t.elemOptional && r.kind == LArg::Kind::TensorList)
                r.kind = LArg::Kind::OptionalTensorList;
            if (r.kind != LArg::Kind::TensorList && r.kind != LArg::Kind::OptionalTensorList)
                return fail(
                    ErrorCode::InvalidInput, "method '" + m_method + "': " + where + ": expected a tensor list");
            for (const int ref : r.refs)
                if (ref >= 0 && m_out.values[std::size_t(ref)].isSym)
                    return fail(ErrorCode::InvalidInput,
                        "method '" + m_method + "': " + where
                            + ": AbstractValue corresponding to tensor type doesn't contain tensor value");
            return r;
        }
        case BaseType::Int:
        case BaseType::SymInt: {
            r.kind = LArg::Kind::IntList;
            if (a.kind == ArgKind::Int || a.kind == ArgKind::SymInt) {
                PTE_TRY(const auto e, intElem(a, 0, where));
                for (int k = 0; k < std::max(1, t.fixedSize); ++k)
                    r.ints.push_back(e);
                return r;
            }
            if (a.kind != ArgKind::Ints && a.kind != ArgKind::SymInts)
                return fail(ErrorCode::InvalidInput,
                    "method '" + m_method + "': " + where + ": expected an int list, got " + argKindName(a.kind));
            return convertUntyped(a, where);
        }
        case BaseType::Float: {
            r.kind = LArg::Kind::DoubleList;
            auto& ds = r.rare.emplace().ds;
            ds = a.floats;
            for (const auto v : a.ints)
                ds.push_back(double(v));
            return r;
        }
        case BaseType::Bool:
            r.kind = LArg::Kind::BoolList;
            r.rare.emplace().bs = a.bools;
            return r;
        default:
            return fail(
                ErrorCode::Unsupported, "method '" + m_method + "': " + where + ": Unknown list type: " + t.text);
        }
    }
    switch (t.base) {
    case BaseType::Tensor: {
        PTE_TRY(r, convertUntyped(a, where));
        if (r.kind != LArg::Kind::Tensor && r.kind != LArg::Kind::Null)
            return fail(ErrorCode::InvalidInput,
                "method '" + m_method + "': " + where + ": expected a tensor, got " + argKindName(a.kind));
        return r;
    }
    case BaseType::Float:
        if (a.kind == ArgKind::Int) {
            r.kind = LArg::Kind::Double;
            r.d = a.ints.empty() ? 0.0 : double(a.ints[0]);
            return r;
        }
        return convertUntyped(a, where);
    case BaseType::Bool:
        if (a.kind == ArgKind::Int) {
            r.kind = LArg::Kind::Bool;
            r.b = !a.ints.empty() && a.ints[0] != 0;
            return r;
        }
        return convertUntyped(a, where);
    case BaseType::MemoryFormat: {
        // torch serde: 1 contiguous, 2 channels_last, 3 channels_last_3d, 4 preserve; ExecuTorch: 0 contiguous, 1
        // preserve.
        const auto code = a.ints.empty() ? 0 : a.ints[0];
        if (code == 1 || code == 4) {
            r.kind = LArg::Kind::Int;
            r.i = code == 1 ? 0 : 1;
            return r;
        }
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': " + where
                + ": Tensor has a memory_format that is unsupported in ExecuTorch (serde code " + std::to_string(code)
                + ")");
    }
    case BaseType::Layout: {
        const auto code = a.ints.empty() ? 7 : a.ints[0];
        if (code == 7 || code == 1) {
            r.kind = LArg::Kind::Int;
            r.i = code == 7 ? 0 : 1;
            return r;
        }
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': " + where + ": layout code " + std::to_string(code) + " is not supported");
    }
    case BaseType::Device:
        return fail(ErrorCode::Unsupported,
            "method '" + m_method + "': " + where + ": Unsupported constant type: torch.device");
    default:
        return convertUntyped(a, where);
    }
}

Result<LArg> Lowering::defaultArg(const SchemaArg& a, const Where& where)
{
    // A default depends on the schema argument alone: parsed once per argument, copied for each call.
    if (const auto it = m_defaults.find(&a); it != m_defaults.end())
        return it->second;
    PTE_TRY(auto r, parseDefault(a, where));
    m_defaults.emplace(&a, r);
    return r;
}

Result<LArg> Lowering::parseDefault(const SchemaArg& a, const Where& where)
{
    LArg r;
    if (!a.defaultValue) {
        if (a.type.optional)
            return r;
        return fail(ErrorCode::InvalidInput,
            "method '" + m_method + "': " + where + ": required argument '" + a.name + "' is missing");
    }
    const std::string& d = *a.defaultValue;
    if (d == "None")
        return convertArg(Argument {}, a.type, where);
    auto parseInt = [](std::string_view s, std::int64_t& v) {
        const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
        return res.ec == std::errc() && res.ptr == s.data() + s.size();
    };
    if (a.type.isList) {
        std::vector<std::string_view> items;
        std::string_view body = d;
        if (!body.empty() && body.front() == '[') {
            body = body.substr(1, body.size() - 2);
            std::size_t p = 0;
            while (p < body.size()) {
                auto c = body.find(',', p);
                if (c == std::string_view::npos)
                    c = body.size();
                auto item = body.substr(p, c - p);
                while (!item.empty() && item.front() == ' ')
                    item.remove_prefix(1);
                while (!item.empty() && item.back() == ' ')
                    item.remove_suffix(1);
                if (!item.empty())
                    items.push_back(item);
                p = c + 1;
            }
        } else {
            for (int k = 0; k < std::max(1, a.type.fixedSize); ++k)
                items.push_back(body);
        }
        if (a.type.base == BaseType::Int || a.type.base == BaseType::SymInt) {
            r.kind = LArg::Kind::IntList;
            for (const auto it : items) {
                std::int64_t v = 0;
                if (!parseInt(it, v))
                    return fail(ErrorCode::Internal, "bad default '" + d + "' for '" + a.name + "'");
                r.ints.push_back({ v, -1 });
            }
            return r;
        }
        if (a.type.base == BaseType::Bool) {
            r.kind = LArg::Kind::BoolList;
            auto& bs = r.rare.emplace().bs;
            for (const auto it : items)
                bs.push_back(it == "True");
            return r;
        }
        if (a.type.base == BaseType::Float) {
            r.kind = LArg::Kind::DoubleList;
            auto& ds = r.rare.emplace().ds;
            for (const auto it : items)
                ds.push_back(std::strtod(std::string(it).c_str(), nullptr));
            return r;
        }
        return fail(ErrorCode::Internal, "unsupported list default for '" + a.name + "'");
    }
    if (d == "True" || d == "False") {
        r.kind = LArg::Kind::Bool;
        r.b = d == "True";
        return r;
    }
    if (!d.empty() && (d.front() == '"' || d.front() == '\'')) {
        r.kind = LArg::Kind::String;
        r.rare.emplace().s = d.substr(1, d.size() - 2);
        return r;
    }
    if (d == "contiguous_format" || d == "preserve_format") {
        r.kind = LArg::Kind::Int;
        r.i = d == "contiguous_format" ? 0 : 1;
        return r;
    }
    if (d == "Mean" || d == "Sum" || d == "None_") {
        r.kind = LArg::Kind::Int;
        r.i = d == "None_" ? 0 : d == "Mean" ? 1 : 2; // at::Reduction
        return r;
    }
    if (d == "long") {
        r.kind = LArg::Kind::Int;
        r.i = std::int64_t(ScalarType::Long);
        return r;
    }
    std::int64_t iv = 0;
    if (parseInt(d, iv) && a.type.base != BaseType::Float) {
        r.kind = LArg::Kind::Int;
        r.i = iv;
        return r;
    }
    r.kind = LArg::Kind::Double;
    r.d = std::strtod(d.c_str(), nullptr);
    return r;
}

Result<ArgMap> Lowering::bindArgs(const OpSchema& s, const Node& n)
{
    ArgMap out;
    out.reserve(n.inputs.size());
    const Where where = this->where(n);
    std::size_t positional = 0;
    for (const auto& in : n.inputs) {
        int idx = in.name.empty() ? -1 : s.argIndex(in.name);
        if (idx < 0 && in.name.empty()) {
            // unnamed: by position among the non-kwarg-only arguments
            while (positional < s.args.size() && s.args[positional].kwargOnly)
                ++positional;
            if (positional < s.args.size())
                idx = int(positional++);
        }
        if (idx < 0) {
            warn(where + ": argument '" + in.name + "' is not in the schema " + s.key() + "; ignored", n.jsonPath);
            continue;
        }
        const auto& sa = s.args[std::size_t(idx)];
        if (sa.type.base == BaseType::Device && in.arg.kind == ArgKind::Device) {
            // torch.export writes device=cpu on factory functions (zeros, ones, full, arange...). No out form
            // takes a device (ExecuTorch's edge dialect drops it), so a CPU device is no argument at all.
            const std::string device = in.arg.strings.empty() ? std::string("cpu") : in.arg.strings[0];
            if (device != "cpu")
                return fail(nodeError(n, ErrorCode::Unsupported,
                    "argument '" + sa.name + "' is device '" + device + "': ExecuTorch programs run on the CPU"));
            continue;
        }
        if (in.arg.kind == ArgKind::Tensor && sa.type.base == BaseType::Tensor && !sa.type.isList
            && !in.arg.names.empty() && !in.arg.names[0].empty()) {
            // A tensor for a Tensor parameter (most arguments of most nodes): bound in place, as convertArg
            // would bind it. Anything unusual (unknown name, a symbolic value) takes the general path below.
            const auto ref = lookup(in.arg.names[0], where);
            if (ref && !m_out.values[std::size_t(*ref)].isSym) {
                LArg& slot = out[sa.name];
                slot = LArg {};
                slot.kind = LArg::Kind::Tensor;
                slot.ref = *ref;
                continue;
            }
        }
        auto arg = convertArg(in.arg, sa.type, where);
        if (!arg) {
            auto e = withPath(n, arg.error());
            e.message += " (argument '" + sa.name + "')";
            return fail(std::move(e));
        }
        out[sa.name] = std::move(*arg);
    }
    return out;
}

Result<std::vector<int>> Lowering::nodeOutputs(const Node& n)
{
    std::vector<int> outs;
    const Where where = this->where(n);
    for (const auto& o : n.outputs) {
        if (o.kind == ArgKind::Tensor || o.kind == ArgKind::Tensors || o.kind == ArgKind::OptionalTensors) {
            for (const auto& nm : o.names) {
                PTE_TRY(const int id, newTensorFromName(nm, where));
                outs.push_back(id);
            }
        } else if (o.kind == ArgKind::SymInt || o.kind == ArgKind::SymBool || o.kind == ArgKind::SymFloat) {
            std::string nm = !o.names.empty() ? o.names[0] : (!o.syms.empty() ? o.syms[0].expr : std::string());
            outs.push_back(newSym(nm));
        } else if (o.kind == ArgKind::None) {
            continue;
        } else {
            return fail(nodeError(
                n, ErrorCode::Unsupported, std::string("output of kind ") + argKindName(o.kind) + " is not supported"));
        }
    }
    return outs;
}

Result<void> Lowering::emitKernel(
    const OpSchema& s, ArgMap given, const std::vector<int>& outs, const Node& n, const std::string& origin)
{
    // Built in place: on failure the caller abandons the whole lowering.
    LInstr& in = m_out.instrs.emplace_back();
    in.kind = LInstr::Kind::Kernel;
    in.schema = &s;
    in.node = &n;
    in.origin = origin.empty() ? n.name : origin;
    in.recordDebug = m_recordDebug;
    if (m_recordDebug) {
        in.debugHandle = firstDebugHandle(n);
        in.debugHandleRead = true;
    }
    in.args.reserve(s.args.size());
    std::size_t nextOut = 0;
    for (std::size_t i = 0; i < s.args.size(); ++i) {
        const auto& a = s.args[i];
        if (a.kwargOnly && a.type.mutates) { // an out argument (OpSchema::outArgs)
            auto it = given.find(a.name);
            if (it != given.end() && it->second.kind != LArg::Kind::Null) {
                in.args.push_back(std::move(it->second));
            } else if (a.type.isList) {
                LArg l;
                l.kind = LArg::Kind::TensorList;
                for (; nextOut < outs.size(); ++nextOut) {
                    l.refs.push_back(outs[nextOut]);
                    in.allocs.push_back(outs[nextOut]);
                }
                in.args.push_back(std::move(l));
            } else {
                if (nextOut >= outs.size())
                    return fail(nodeError(n, ErrorCode::InvalidInput,
                        "the node has fewer outputs than " + s.key() + " has out arguments"));
                in.allocs.push_back(outs[nextOut]);
                in.args.push_back(LArg::tensor(outs[nextOut++]));
            }
            in.outArgIndices.push_back(i);
            continue;
        }
        auto it = given.find(a.name);
        if (it != given.end()) {
            in.args.push_back(std::move(it->second));
        } else {
            auto d = defaultArg(a, this->where(n));
            if (!d)
                return fail(withPath(n, d.error()));
            in.args.push_back(std::move(*d));
        }
    }
    if (s.isOutFn()) {
        in.ret = LInstr::Ret::OutArgs;
        deriveLayouts(in, n);
    } else if (s.isSymOp()) {
        if (outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "a symbolic op must have exactly one output"));
        LArg r;
        r.kind = LArg::Kind::SymResult;
        r.ref = outs[0];
        in.retSlots.push_back(r);
    } else {
        // The node's own result(s); a list-typed result is wrapped in a TensorList.
        const bool listRet = s.returns.size() == 1 && s.returns[0].type.isList;
        if (listRet) {
            LArg l;
            l.kind = LArg::Kind::TensorList;
            l.refs = outs;
            in.retSlots.push_back(std::move(l));
        } else {
            for (const int o : outs)
                in.retSlots.push_back(
                    m_out.values[std::size_t(o)].isSym ? LArg { LArg::Kind::SymResult, o } : LArg::tensor(o));
        }
    }
    return {};
}

void Lowering::info(const Node& n, const std::string& msg)
{
    // One note per node up to a limit, then one that counts the rest (a transformer has thousands of views).
    constexpr std::size_t kMaxNotes = 20;
    ++m_layoutNotes;
    if (m_layoutNotes > kMaxNotes + 1)
        return;
    Diagnostic d;
    d.severity = Severity::Info;
    d.code = ErrorCode::Unsupported;
    d.message = "method '" + m_method + "': "
        + (m_layoutNotes > kMaxNotes ? std::string("more nodes whose dump metadata ExecuTorch derives differently "
                                                   "(not listed one by one)")
                                     : this->where(n) + ": " + msg);
    d.fieldPath = m_layoutNotes > kMaxNotes ? std::string() : n.jsonPath;
    d.file = m_ep.source;
    m_out.warnings.push_back(std::move(d));
}

void Lowering::deriveLayouts(const LInstr& in, const Node& n)
{
    // Runs for every kernel call of big graphs: the rule is cached per schema, and an out tensor that already has
    // the derived order (nearly all) costs a comparison, no allocation.
    const OpSchema& s = *in.schema;
    auto cached = m_outputRules.find(&s);
    if (cached == m_outputRules.end())
        cached = m_outputRules
                     .emplace(&s,
                         OutputRule {
                             layoutRule(s), isPointwise(s), dtypeRule(s), { s.argIndex("self"), s.argIndex("other") } })
                     .first;
    const LayoutRule rule = cached->second.layout;
    // Pointwise ops: the out tensor has the broadcast shape of the (static) tensor inputs.
    std::optional<std::vector<std::int32_t>> shape;
    if (cached->second.pointwise) {
        for (std::size_t i = 0; i < s.args.size() && i < in.args.size(); ++i) {
            const auto& a = in.args[i];
            if (s.args[i].type.mutates || a.kind != LArg::Kind::Tensor)
                continue;
            const LValue& t = m_out.values[std::size_t(a.ref)];
            if (t.isSym || t.dynamism != ShapeDynamism::Static) {
                shape.reset();
                break;
            }
            shape = shape ? broadcastShapes(*shape, t.sizes) : t.sizes;
            if (!shape)
                break;
        }
    }
    // Pointwise ops whose result dtype torch's type promotion fixes: the out tensor gets it.
    std::optional<ScalarType> dtype;
    if (const DtypeRule dr = cached->second.dtype; dr == DtypeRule::Bool) {
        dtype = ScalarType::Bool;
    } else if (dr != DtypeRule::None) {
        // The operands (self, other): one tensor dtype, raised by a Python scalar of a higher category. Tensors of
        // different dtypes or categories this does not model leave the dump's dtype in place.
        std::optional<ScalarType> common;
        int scalarCategory = -1;
        bool certain = true;
        for (const int i : cached->second.operands) {
            if (i < 0 || std::size_t(i) >= in.args.size() || s.args[std::size_t(i)].type.mutates || !certain)
                continue;
            const auto& a = in.args[std::size_t(i)];
            if (a.kind == LArg::Kind::Tensor) {
                const ScalarType t = m_out.values[std::size_t(a.ref)].dtype;
                certain = dtypeCategory(t) >= 0 && (!common || *common == t);
                common = t;
            } else if (a.kind == LArg::Kind::Bool || a.kind == LArg::Kind::Int || a.kind == LArg::Kind::Double) {
                scalarCategory = std::max(scalarCategory,
                    a.kind == LArg::Kind::Bool      ? 0
                        : a.kind == LArg::Kind::Int ? 1
                                                    : 2);
            } else {
                certain = false; // a symbolic scalar, None...
            }
        }
        if (certain && common) {
            ScalarType t = *common;
            if (scalarCategory > dtypeCategory(t))
                t = scalarCategory == 2 ? ScalarType::Float : ScalarType::Long;
            if (dr == DtypeRule::FloatOp && dtypeCategory(t) < 2)
                t = ScalarType::Float;
            dtype = t;
        }
    }
    // The first tensor input (a tensor list's first tensor): the layout pointwise ops and the rest keep.
    int primary = -1;
    if (rule != LayoutRule::Contiguous) {
        for (std::size_t i = 0; i < s.args.size() && i < in.args.size() && primary < 0; ++i) {
            const auto& a = in.args[i];
            if (s.args[i].type.mutates || s.args[i].type.base != BaseType::Tensor)
                continue;
            if (a.kind == LArg::Kind::Tensor)
                primary = a.ref;
            else if ((a.kind == LArg::Kind::TensorList || a.kind == LArg::Kind::OptionalTensorList) && !a.refs.empty())
                primary = a.refs[0];
        }
    }
    std::optional<std::vector<std::uint8_t>> requested; // dim_order / memory_format arguments (empty: contiguous)
    if (rule == LayoutRule::DimOrderArg || rule == LayoutRule::MemoryFormatArg) {
        const int idx = s.argIndex(rule == LayoutRule::DimOrderArg ? "dim_order" : "memory_format");
        if (idx >= 0 && std::size_t(idx) < in.args.size()) {
            const LArg& a = in.args[std::size_t(idx)];
            if (a.kind == LArg::Kind::IntList) {
                std::vector<std::uint8_t> order;
                for (const auto& e : a.ints)
                    order.push_back(std::uint8_t(e.literal));
                requested = std::move(order);
            } else if (a.kind == LArg::Kind::Int && a.i == 0) {
                requested = std::vector<std::uint8_t> {};
            }
        }
    }
    auto derive = [&](int o) {
        if (o < 0 || m_out.values[std::size_t(o)].isSym)
            return;
        auto& v = m_out.values[std::size_t(o)];
        if (v.mutableBuffer || v.storage != LValue::Storage::Planned)
            return; // a graph input written in place keeps the layout it has
        if (shape && *shape != v.sizes && v.dynamism == ShapeDynamism::Static) {
            if (v.fromDump)
                info(n,
                    "the dump gives '" + v.name + "' the sizes " + showSizes(v.sizes) + ", but " + s.key()
                        + " broadcasts its inputs to " + showSizes(*shape)
                        + ": emitted with those, as ExecuTorch's "
                          "edge dialect derives them");
            v.sizes = *shape;
        }
        if (dtype && *dtype != v.dtype) {
            if (v.fromDump)
                info(n,
                    "the dump gives '" + v.name + "' the dtype " + scalarTypeShortName(v.dtype) + ", but " + s.key()
                        + " computes " + scalarTypeShortName(*dtype) + " from its operands: emitted with "
                        + scalarTypeShortName(*dtype) + " as ExecuTorch's edge dialect derives it");
            v.dtype = *dtype;
        }
        const std::size_t rank = v.sizes.size();
        const std::vector<std::uint8_t>* want = nullptr; // null: contiguous
        if (requested && requested->size() == rank)
            want = &*requested;
        else if (!requested && primary >= 0 && m_out.values[std::size_t(primary)].dimOrder.size() == rank)
            want = &m_out.values[std::size_t(primary)].dimOrder;
        if (want ? *want == v.dimOrder : isIdentity(v.dimOrder, rank))
            return;
        std::vector<std::uint8_t> order(rank);
        if (want)
            order = *want;
        else
            std::iota(order.begin(), order.end(), std::uint8_t(0));
        if (v.fromDump && v.aliasOf < 0 && !v.dimOrder.empty())
            info(n,
                "the dump gives '" + v.name + "' the dim order " + showOrder(v.dimOrder) + " (its strides), but "
                    + s.key()
                    + (rule == LayoutRule::Contiguous ? " writes a new contiguous tensor"
                                                      : " gives it the layout of its input or arguments")
                    + ": emitted with " + showOrder(order) + " as ExecuTorch's edge dialect derives it");
        v.dimOrder = std::move(order);
    };
    for (const auto i : in.outArgIndices) {
        const LArg& a = in.args[i];
        if (a.kind == LArg::Kind::Tensor)
            derive(a.ref);
        else if (a.kind == LArg::Kind::TensorList)
            for (const int r : a.refs)
                derive(r);
    }
}

Result<LArg> Lowering::memoryFormatDimOrder(const Node& n, std::size_t rank) const
{
    std::vector<std::int64_t> order(rank);
    std::iota(order.begin(), order.end(), 0);
    const NamedArgument* mf = n.input("memory_format");
    if (!mf || mf->arg.kind != ArgKind::MemoryFormat || mf->arg.ints.empty())
        return LArg::intList(order);
    const auto code = mf->arg.ints[0]; // torch serde: 1 contiguous, 2 channels_last, 3 channels_last_3d, 4 preserve
    if (code == 4)
        return LArg {};
    if ((code == 2 && rank == 4) || (code == 3 && rank == 5)) {
        order.erase(order.begin() + 1);
        order.push_back(1);
        return LArg::intList(order);
    }
    if (code != 1)
        return fail(nodeError(n, ErrorCode::Unsupported,
            "memory format code " + std::to_string(code) + " for a rank-" + std::to_string(rank) + " tensor"));
    return LArg::intList(order);
}

Result<void> Lowering::checkViewSize(const Node& n, int src, int out, const LArg& size)
{
    if (size.kind != LArg::Kind::IntList)
        return {};
    const LValue& in = m_out.values[std::size_t(src)];
    std::uint64_t inNumel = 1;
    for (const auto d : in.sizes)
        inNumel *= std::uint64_t(std::max<std::int32_t>(d, 0));
    std::uint64_t known = 1;
    bool inferred = false;
    bool dynamic = in.dynamism != ShapeDynamism::Static;
    for (const auto& e : size.ints) {
        std::int64_t v = e.literal;
        if (e.ref >= 0) {
            dynamic = true;
            const auto it = m_ep.graph.symIntValues.find(m_out.values[std::size_t(e.ref)].name);
            const auto bound =
                it == m_ep.graph.symIntValues.end() ? std::nullopt : symUpperBound(it->second, m_ep.rangeConstraints);
            if (!bound)
                return {}; // nothing to compare with
            v = *bound;
        }
        if (v == -1 && !inferred) {
            inferred = true;
            continue;
        }
        if (v < 0)
            return fail(nodeError(n, ErrorCode::InvalidInput, "view size " + std::to_string(v) + " is invalid"));
        known *= std::uint64_t(v);
    }
    const LValue& o = m_out.values[std::size_t(out)];
    std::uint64_t outNumel = 1;
    for (const auto d : o.sizes)
        outNumel *= std::uint64_t(std::max<std::int32_t>(d, 0));
    if (!dynamic) {
        const bool fits = inferred ? known != 0 && inNumel % known == 0 : known == inNumel;
        if (!fits)
            return fail(nodeError(n, ErrorCode::InvalidInput,
                "the view asks for " + std::to_string(known) + (inferred ? " x -1" : "") + " elements of a tensor of "
                    + std::to_string(inNumel) + " (torch refuses such a view: the dump is inconsistent)"));
        return {};
    }
    // Dynamic: the requested size at the upper bounds must fit the output as planned.
    if (!inferred && known > outNumel)
        return fail(nodeError(n, ErrorCode::InvalidInput,
            "the view's size reaches " + std::to_string(known)
                + " elements at the symbols' upper bounds, but its output '" + o.name + "' holds at most "
                + std::to_string(outNumel)
                + " (the dump's sizes disagree with the size argument; the runtime would refuse to resize it)"));
    return {};
}

void Lowering::alias(const Node& n, int ref)
{
    for (const auto& o : n.outputs)
        for (const auto& nm : o.names)
            define(nm, ref);
}

Result<void> Lowering::emitFunctionalAsIs(const OpSchema& s, const Node& n)
{
    PTE_TRY(auto given, bindArgs(s, n));
    PTE_TRY(const auto outs, nodeOutputs(n));
    return emitKernel(s, std::move(given), outs, n);
}

Result<void> Lowering::emitUnknown(const TargetName& t, const Node& n)
{
    warn(this->where(n) + ": operator " + t.ns + "::" + t.op + (t.overload.empty() ? "" : "." + t.overload)
            + " is not in ptelens' schema registry; emitted with the arguments present (no defaults, no out "
              "variant), which the runtime will most likely not find",
        n.jsonPath);
    LInstr in;
    in.kind = LInstr::Kind::Kernel;
    in.name = LInstr::OperatorName { t.ns + "::" + t.op, t.overload };
    in.node = &n;
    in.origin = n.name;
    in.recordDebug = m_recordDebug;
    for (const auto& a : n.inputs) {
        auto arg = convertUntyped(a.arg, this->where(n));
        if (!arg)
            return fail(withPath(n, arg.error()));
        in.args.push_back(std::move(*arg));
    }
    PTE_TRY(const auto outs, nodeOutputs(n));
    for (const int o : outs)
        in.retSlots.push_back(m_out.values[std::size_t(o)].isSym ? LArg { LArg::Kind::SymResult, o } : LArg::tensor(o));
    m_out.instrs.push_back(std::move(in));
    return {};
}

Result<void> Lowering::lowerSymOp(const Node& n)
{
    // Python operator targets on SymInts -> executorch_prim scalar ops (EdgeToBackendOpsPass).
    static const std::map<std::string, std::string, std::less<>> kMap = {
        { "add", "add" },
        { "sub", "sub" },
        { "mul", "mul" },
        { "floordiv", "floordiv" },
        { "truediv", "truediv" },
        { "mod", "mod" },
        { "eq", "eq" },
        { "gt", "gt" },
        { "lt", "lt" },
        { "ge", "ge" },
        { "le", "le" },
        { "neg", "neg" },
        { "sym_max", "sym_max" },
        { "sym_min", "sym_min" },
        { "sym_float", "sym_float" },
        { "sym_int", "sym_int" },
        { "sym_not", "sym_not" },
        { "sym_ite", "sym_ite" },
        { "ceil", "ceil" },
        { "round", "round" },
        { "trunc", "trunc" },
    };
    std::string_view t = n.target;
    const auto dot = t.rfind('.');
    const auto fn = dot == std::string_view::npos ? t : t.substr(dot + 1);
    const auto it = kMap.find(fn);
    const OpSchema* s = it == kMap.end() ? nullptr : m_reg.find("executorch_prim::" + it->second, "Scalar");
    if (!s)
        return fail(
            nodeError(n, ErrorCode::Unsupported, "symbolic operation is not supported by ExecuTorch's prim ops"));
    ArgMap given;
    for (std::size_t i = 0; i < n.inputs.size() && i < s->args.size(); ++i) {
        auto arg = convertUntyped(n.inputs[i].arg, this->where(n));
        if (!arg)
            return fail(withPath(n, arg.error()));
        given[s->args[i].name] = std::move(*arg);
    }
    PTE_TRY(const auto outs, nodeOutputs(n));
    return emitKernel(*s, std::move(given), outs, n);
}

Result<void> Lowering::lowerDelegate(const Node& n)
{
    if (n.inputs.empty())
        return fail(nodeError(n, ErrorCode::InvalidInput, "delegate call without a lowered module argument"));
    std::shared_ptr<const LoweredModule> lowered;
    std::vector<std::string> keys { n.inputs[0].name };
    if (!n.inputs[0].arg.strings.empty())
        keys.push_back(n.inputs[0].arg.strings[0]);
    if (!n.inputs[0].arg.names.empty())
        keys.push_back(n.inputs[0].arg.names[0]);
    for (const auto& k : keys) {
        const auto it = m_ep.loweredModules.find(k);
        if (it != m_ep.loweredModules.end()) {
            lowered = it->second;
            break;
        }
    }
    if (!lowered && m_ep.loweredModules.size() == 1 && n.inputs[0].name.empty())
        lowered = m_ep.loweredModules.begin()->second;
    if (!lowered)
        return fail(
            nodeError(n, ErrorCode::InvalidInput, "lowered module '" + n.inputs[0].name + "' is not in the dump"));
    LInstr in;
    in.kind = LInstr::Kind::Delegate;
    in.lowered = lowered;
    in.node = &n;
    in.origin = n.name;
    in.recordDebug = m_recordDebug;
    for (std::size_t i = 1; i < n.inputs.size(); ++i) {
        auto arg = convertUntyped(n.inputs[i].arg, this->where(n));
        if (!arg)
            return fail(withPath(n, arg.error()));
        in.args.push_back(std::move(*arg));
    }
    PTE_TRY(in.delegateOuts, nodeOutputs(n));
    m_out.instrs.push_back(std::move(in));
    return {};
}

Result<std::vector<int>> Lowering::lowerSubgraph(
    const Graph& g, const std::vector<int>& operands, const std::vector<int>* bindings, const Where& where)
{
    if (g.inputs.size() != operands.size())
        return fail(ErrorCode::InvalidInput,
            "method '" + m_method + "': " + where + ": the sub-graph takes " + std::to_string(g.inputs.size())
                + " inputs but " + std::to_string(operands.size()) + " are passed");
    m_scopes.emplace_back();
    m_graphs.push_back(&g);
    const bool savedRecord = m_recordDebug;
    m_recordDebug = false;
    for (std::size_t i = 0; i < g.inputs.size(); ++i)
        for (const auto& nm : g.inputs[i].names)
            define(nm, operands[i]);
    for (const auto& node : g.nodes)
        PTE_CHECK(lowerNode(node));
    std::vector<int> outs;
    for (const auto& o : g.outputs)
        for (const auto& nm : o.names) {
            PTE_TRY(const int r, lookup(nm, where + " sub-graph output"));
            outs.push_back(r);
        }
    if (bindings) {
        if (outs.size() != bindings->size())
            return fail(ErrorCode::InvalidInput,
                "method '" + m_method + "': " + where
                    + ": number of binding output values should match (sub-graph returns " + std::to_string(outs.size())
                    + ", the node has " + std::to_string(bindings->size()) + ")");
        for (std::size_t i = 0; i < outs.size(); ++i) {
            if (outs[i] == (*bindings)[i])
                continue;
            LInstr mv;
            mv.kind = LInstr::Kind::Move;
            mv.moveFrom = outs[i];
            mv.moveTo = (*bindings)[i];
            mv.origin = where.str();
            mv.recordDebug = false;
            m_out.instrs.push_back(std::move(mv));
        }
    }
    m_recordDebug = savedRecord;
    m_graphs.pop_back();
    m_scopes.pop_back();
    return outs;
}

Result<std::vector<int>> Lowering::tensorRefs(const Node& n, const Argument& a)
{
    std::vector<int> refs;
    if (a.kind == ArgKind::None)
        return refs;
    if (a.kind != ArgKind::Tensor && a.kind != ArgKind::Tensors)
        return fail(nodeError(
            n, ErrorCode::InvalidInput, std::string("expected a list of tensors, found ") + argKindName(a.kind)));
    for (const auto& nm : a.names) {
        auto r = lookup(nm, this->where(n));
        if (!r)
            return fail(withPath(n, r.error()));
        if (m_out.values[std::size_t(*r)].isSym)
            return fail(nodeError(n, ErrorCode::InvalidInput, "'" + nm + "' is not a tensor"));
        refs.push_back(*r);
    }
    return refs;
}

int Lowering::newCounter(const std::string& name, bool isBool)
{
    LValue v;
    v.isSym = true;
    v.symCounter = true;
    v.symBool = isBool;
    v.name = name;
    v.storage = LValue::Storage::Unplanned;
    m_out.values.push_back(std::move(v));
    return int(m_out.values.size() - 1);
}

Result<int> Lowering::newPlaceholderTensor(const Graph& g, std::size_t input, const Node& n)
{
    if (input >= g.inputs.size() || g.inputs[input].kind != ArgKind::Tensor || g.inputs[input].names.empty())
        return fail(nodeError(
            n, ErrorCode::InvalidInput, "sub-graph input " + std::to_string(input) + " is not a tensor placeholder"));
    const std::string& name = g.inputs[input].names[0];
    const auto it = g.tensorValues.find(name);
    if (it == g.tensorValues.end())
        return fail(nodeError(n, ErrorCode::InvalidInput,
            "sub-graph placeholder '" + name + "' has no entry in the sub-graph's tensor_values"));
    return newTensor(name, it->second, this->where(n));
}

void Lowering::pushSynthetic(const Node& n, const char* op, const char* overload, std::vector<LArg> args)
{
    LInstr in;
    in.kind = LInstr::Kind::Kernel;
    in.name = LInstr::OperatorName { op, overload };
    in.args = std::move(args);
    in.node = &n;
    in.origin = n.name;
    in.recordDebug = false;
    m_out.instrs.push_back(std::move(in));
}

// map_impl(f, [x], extra) as ExecuTorch's emitter lays it out (emitter-semantics §10): a loop over dim 0 of x
// built from jumps and executorch_prim scalar ops; the body's result is stacked into the binding output by
// et_copy_index.
Result<void> Lowering::lowerMap(const Node& n)
{
    if (n.inputs.size() < 2 || n.inputs[0].arg.kind != ArgKind::Graph || !n.inputs[0].arg.graph)
        return fail(nodeError(n, ErrorCode::InvalidInput, "map_impl expects (body_graph, mapped_args, operands)"));
    // torch >= 2.2: (f, [mapped...], [operands...]); torch 2.1: (f, num_mapped, *mapped, *operands).
    const bool legacy = n.inputs[1].arg.kind == ArgKind::Int;
    if (!legacy && n.inputs.size() > 3)
        return fail(nodeError(n, ErrorCode::InvalidInput, "map_impl expects (body_graph, mapped_args, operands)"));
    const Graph& body = *n.inputs[0].arg.graph;
    // Binding outputs first (before any loop value), forced to DYNAMIC_BOUND like ExecuTorch.
    PTE_TRY(const auto bindings, nodeOutputs(n));
    for (const int b : bindings)
        m_out.values[std::size_t(b)].dynamism = ShapeDynamism::DynamicBound;
    if (bindings.size() != 1)
        return fail(nodeError(n, ErrorCode::Unsupported,
            "Multiple outputs are not supported. Got " + std::to_string(bindings.size()) + "."));
    if (!lookup(n.name, {}))
        define(n.name, bindings[0]);
    std::vector<int> mapped;
    std::vector<int> extra;
    if (legacy) {
        const auto numMapped = n.inputs[1].arg.ints.empty() ? 0 : n.inputs[1].arg.ints[0];
        for (std::size_t i = 2; i < n.inputs.size(); ++i) {
            PTE_TRY(const auto refs, tensorRefs(n, n.inputs[i].arg));
            for (const int r : refs)
                (std::int64_t(mapped.size()) < numMapped ? mapped : extra).push_back(r);
        }
    } else {
        PTE_TRY(mapped, tensorRefs(n, n.inputs[1].arg));
        if (n.inputs.size() > 2) {
            PTE_TRY(extra, tensorRefs(n, n.inputs[2].arg));
        }
    }
    if (mapped.size() != 1)
        return fail(nodeError(n, ErrorCode::Unsupported,
            "Emitting map with more than one mapped args is not supported. Got " + std::to_string(mapped.size())
                + "."));
    std::size_t bodyOutputs = 0;
    for (const auto& o : body.outputs)
        bodyOutputs += o.kind == ArgKind::None ? 0 : std::max<std::size_t>(o.names.size(), 1);
    if (bodyOutputs != 1)
        return fail(nodeError(n, ErrorCode::Unsupported,
            "Map should return only one element (the body returns " + std::to_string(bodyOutputs) + ")"));
    const int x = mapped[0];
    const int accum = bindings[0];
    const int iter = newCounter(n.name + "_iter");
    const int count = newCounter(n.name + "_n");
    LInstr alloc;
    alloc.kind = LInstr::Kind::Alloc;
    alloc.allocs = { accum, iter, count };
    m_out.instrs.push_back(std::move(alloc));
    pushSynthetic(n, "aten::sym_size", "int", { LArg::tensor(x), LArg::integer(0), ref(count) });
    const int loop = m_labels++;
    LInstr head;
    head.kind = LInstr::Kind::Label;
    head.label = loop;
    m_out.instrs.push_back(head);
    // The slice is the body's first placeholder: a value of its own (ExecuTorch's -1 binding).
    PTE_TRY(const int slice, newPlaceholderTensor(body, 0, n));
    pushSynthetic(n, "aten::select_copy", "int_out",
        { LArg::tensor(x), LArg::integer(0), ref(iter), LArg::tensor(slice), LArg::tensor(slice) });
    std::vector<int> operands { slice };
    operands.insert(operands.end(), extra.begin(), extra.end());
    PTE_TRY(const auto outs, lowerSubgraph(body, operands, &bindings, this->where(n) + " body"));
    // ExecuTorch drops the body's last instruction, the MoveCall into the binding: et_copy_index stacks instead.
    if (!m_out.instrs.empty() && m_out.instrs.back().kind == LInstr::Kind::Move && m_out.instrs.back().moveTo == accum)
        m_out.instrs.pop_back();
    pushSynthetic(n, "executorch_prim::et_copy_index", "tensor", { LArg::tensor(accum), ref(outs[0]), ref(iter) });
    closeLoop(n, iter, count, loop);
    return {};
}

// The end of a map/scan iteration (emitter-semantics §10): iter += 1; done = iter == n; jump back to the loop
// head while not done; then iter -= n, so the next run of the method starts from 0 again.
void Lowering::closeLoop(const Node& n, int iter, int count, int loop)
{
    pushSynthetic(n, "executorch_prim::add", "Scalar", { ref(iter), LArg::integer(1), ref(iter) });
    const int done = newCounter(n.name + "_done", true);
    pushSynthetic(n, "executorch_prim::eq", "Scalar", { ref(iter), ref(count), ref(done) });
    LInstr back;
    back.kind = LInstr::Kind::JumpFalse;
    back.cond = ref(done);
    back.label = loop;
    back.origin = n.name;
    back.recordDebug = false;
    m_out.instrs.push_back(std::move(back));
    pushSynthetic(n, "executorch_prim::sub", "Scalar", { ref(iter), ref(count), ref(iter) });
}

// scan(combine_fn, init, xs, additional): the map loop with carries. Each carry output is initialised from its
// init before the loop, read by the body (its carry placeholders are bound to the carry outputs) and
// overwritten with the body's new carry at the end of each iteration; the y outputs are stacked.
// with_effects(token, op, *args) -> (token, *results): torch.export threads an effect token through an operator with
// side effects. ExecuTorch strips the tokens before emission (graph-dump-formats §9): the token inputs and outputs go
// (placeholders() skips token inputs, token outputs are dropped) and the node becomes the plain call op(*args).
Result<void> Lowering::lowerWithEffects(const Node& n)
{
    if (n.inputs.size() < 2 || n.inputs[1].arg.kind != ArgKind::Operator || n.inputs[1].arg.strings.empty()
        || n.outputs.empty())
        return fail(
            nodeError(n, ErrorCode::InvalidInput, "with_effects expects (token, operator, *args) -> (token, ...)"));
    auto call = std::make_shared<Node>();
    call->name = n.name;
    call->setTarget(n.inputs[1].arg.strings[0]);
    if (call->targetKind != TargetKind::OpOverload)
        return fail(nodeError(n, ErrorCode::InvalidInput,
            "with_effects calls '" + n.inputs[1].arg.strings[0] + "', which is not an operator"));
    call->inputs.assign(n.inputs.begin() + 2, n.inputs.end());
    call->outputs.assign(n.outputs.begin() + 1, n.outputs.end());
    call->metadata = n.metadata;
    call->debugHandles = n.debugHandles;
    call->jsonPath = n.jsonPath;
    // Kept alive with the lowered method: instructions point at the node they came from.
    m_out.madeNodes.push_back(call);
    return lowerNode(*call);
}

Result<void> Lowering::lowerScan(const Node& n)
{
    if (n.inputs.size() != 4 || n.inputs[0].arg.kind != ArgKind::Graph || !n.inputs[0].arg.graph)
        return fail(nodeError(n, ErrorCode::InvalidInput, "scan expects (combine_graph, init, xs, additional_inputs)"));
    const Graph& body = *n.inputs[0].arg.graph;
    PTE_TRY(const auto bindings, nodeOutputs(n));
    PTE_TRY(const auto init, tensorRefs(n, n.inputs[1].arg));
    PTE_TRY(const auto xs, tensorRefs(n, n.inputs[2].arg));
    PTE_TRY(const auto additional, tensorRefs(n, n.inputs[3].arg));
    if (xs.empty())
        return fail(nodeError(n, ErrorCode::Unsupported, "Scan requires at least one xs tensor"));
    const std::size_t nCarry = init.size();
    if (bindings.size() < nCarry)
        return fail(nodeError(n, ErrorCode::InvalidInput,
            "the node has " + std::to_string(bindings.size()) + " outputs but " + std::to_string(nCarry) + " carries"));
    // The stacked outputs are forced to DYNAMIC_BOUND, the carries keep their spec.
    for (std::size_t i = nCarry; i < bindings.size(); ++i)
        m_out.values[std::size_t(bindings[i])].dynamism = ShapeDynamism::DynamicBound;
    std::size_t bodyOutputs = 0;
    for (const auto& o : body.outputs)
        bodyOutputs += o.kind == ArgKind::None ? 0 : std::max<std::size_t>(o.names.size(), 1);
    if (bodyOutputs != bindings.size())
        return fail(nodeError(n, ErrorCode::Unsupported,
            "Scan combine_fn should output " + std::to_string(bindings.size()) + " carry/y values ("
                + std::to_string(nCarry) + " carry, " + std::to_string(bindings.size() - nCarry)
                + " y), but it returns " + std::to_string(bodyOutputs)));
    const int iter = newCounter(n.name + "_iter");
    const int count = newCounter(n.name + "_n");
    LInstr alloc;
    alloc.kind = LInstr::Kind::Alloc;
    alloc.allocs = bindings;
    alloc.allocs.push_back(iter);
    alloc.allocs.push_back(count);
    m_out.instrs.push_back(std::move(alloc));
    pushSynthetic(n, "aten::sym_size", "int", { LArg::tensor(xs[0]), LArg::integer(0), ref(count) });
    for (std::size_t c = 0; c < nCarry; ++c)
        pushSynthetic(n, "aten::copy_", "",
            { LArg::tensor(bindings[c]), LArg::tensor(init[c]), LArg::boolean(false), LArg::tensor(bindings[c]) });
    const int loop = m_labels++;
    LInstr head;
    head.kind = LInstr::Kind::Label;
    head.label = loop;
    m_out.instrs.push_back(head);
    std::vector<int> operands(bindings.begin(), bindings.begin() + std::ptrdiff_t(nCarry));
    for (std::size_t i = 0; i < xs.size(); ++i) {
        PTE_TRY(const int slice, newPlaceholderTensor(body, nCarry + i, n));
        pushSynthetic(n, "aten::select_copy", "int_out",
            { LArg::tensor(xs[i]), LArg::integer(0), ref(iter), LArg::tensor(slice), LArg::tensor(slice) });
        operands.push_back(slice);
    }
    operands.insert(operands.end(), additional.begin(), additional.end());
    PTE_TRY(const auto outs, lowerSubgraph(body, operands, nullptr, this->where(n) + " combine_fn"));
    for (std::size_t c = 0; c < nCarry; ++c)
        pushSynthetic(n, "aten::copy_", "",
            { LArg::tensor(bindings[c]), ref(outs[c]), LArg::boolean(false), LArg::tensor(bindings[c]) });
    for (std::size_t y = nCarry; y < bindings.size(); ++y)
        pushSynthetic(
            n, "executorch_prim::et_copy_index", "tensor", { LArg::tensor(bindings[y]), ref(outs[y]), ref(iter) });
    closeLoop(n, iter, count, loop);
    return {};
}

// memory.view (ExecuTorch's ReplaceViewCopyWithViewPass): the result shares the base's storage. A static view
// of planned or constant storage is elided (a value, no instruction); otherwise et_view sets it at run time.
Result<void> Lowering::lowerMemoryView(const Node& n)
{
    if (n.inputs.size() != 2 || n.inputs[0].arg.names.empty())
        return fail(nodeError(n, ErrorCode::InvalidInput, "memory.view expects (base, size)"));
    PTE_TRY(const auto bases, tensorRefs(n, n.inputs[0].arg));
    PTE_TRY(const auto outs, nodeOutputs(n));
    if (bases.size() != 1 || outs.size() != 1 || m_out.values[std::size_t(outs[0])].isSym)
        return fail(nodeError(n, ErrorCode::InvalidInput, "memory.view needs one tensor input and one tensor output"));
    const int base = bases[0];
    int root = base;
    while (m_out.values[std::size_t(root)].aliasOf >= 0)
        root = m_out.values[std::size_t(root)].aliasOf;
    const auto& b = m_out.values[std::size_t(root)];
    auto& v = m_out.values[std::size_t(outs[0])];
    if (b.storage == LValue::Storage::Unplanned)
        return fail(nodeError(n, ErrorCode::InvalidInput, "the base of memory.view has no storage"));
    if (elementSize(v.dtype) != elementSize(b.dtype) || v.nbytes() > b.nbytes())
        return fail(nodeError(n, ErrorCode::InvalidInput,
            "memory.view result (" + std::to_string(v.nbytes()) + " bytes) does not fit its base ("
                + std::to_string(b.nbytes()) + " bytes)"));
    v.aliasOf = root;
    v.storage = b.storage;
    v.data = b.data;
    v.initialised = b.initialised;
    if (v.dynamism == ShapeDynamism::Static) {
        LInstr a;
        a.kind = LInstr::Kind::Alloc;
        a.allocs = outs;
        m_out.instrs.push_back(std::move(a));
        return {};
    }
    auto size = convertArg(n.inputs[1].arg, ArgType { BaseType::SymInt, false, true }, this->where(n));
    if (!size)
        return fail(withPath(n, size.error()));
    pushSynthetic(
        n, "executorch_prim::et_view", "default", { LArg::tensor(base), std::move(*size), LArg::tensor(outs[0]) });
    return {};
}

Result<void> Lowering::lowerCond(const Node& n)
{
    if (n.inputs.size() != 4 || n.inputs[1].arg.kind != ArgKind::Graph || n.inputs[2].arg.kind != ArgKind::Graph
        || !n.inputs[1].arg.graph || !n.inputs[2].arg.graph)
        return fail(nodeError(n, ErrorCode::InvalidInput, "cond expects (pred, true_graph, false_graph, operands)"));
    auto pred = convertUntyped(n.inputs[0].arg, this->where(n));
    if (!pred)
        return fail(withPath(n, pred.error()));
    std::vector<int> operands;
    for (const auto& nm : n.inputs[3].arg.names) {
        auto r = lookup(nm, this->where(n));
        if (!r)
            return fail(withPath(n, r.error()));
        operands.push_back(*r);
    }
    // Binding outputs first (values before the jump), like ExecuTorch.
    PTE_TRY(const auto bindings, nodeOutputs(n));
    // Some dumps refer to a one-element result by the node's own name.
    if (bindings.size() == 1 && !n.name.empty() && !lookup(n.name, {}))
        define(n.name, bindings[0]);
    LInstr alloc;
    alloc.kind = LInstr::Kind::Alloc;
    alloc.allocs = bindings;
    m_out.instrs.push_back(alloc);
    const int falseLabel = m_labels++;
    const int endLabel = m_labels++;
    LInstr j;
    j.kind = LInstr::Kind::JumpFalse;
    j.cond = std::move(*pred);
    j.label = falseLabel;
    j.origin = n.name;
    j.recordDebug = false;
    m_out.instrs.push_back(std::move(j));
    PTE_CHECK(lowerSubgraph(*n.inputs[1].arg.graph, operands, &bindings, this->where(n) + " true branch"));
    LInstr skip;
    skip.kind = LInstr::Kind::JumpFalse;
    skip.unconditional = true;
    skip.label = endLabel;
    skip.origin = n.name;
    skip.recordDebug = false;
    m_out.instrs.push_back(std::move(skip));
    LInstr lf;
    lf.kind = LInstr::Kind::Label;
    lf.label = falseLabel;
    m_out.instrs.push_back(lf);
    PTE_CHECK(lowerSubgraph(*n.inputs[2].arg.graph, operands, &bindings, this->where(n) + " false branch"));
    LInstr cf;
    cf.kind = LInstr::Kind::CondFalse;
    m_out.instrs.push_back(cf);
    LInstr le;
    le.kind = LInstr::Kind::Label;
    le.label = endLabel;
    m_out.instrs.push_back(le);
    return {};
}

Result<void> Lowering::lowerNode(const Node& n)
{
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))
        return fail(ErrorCode::Cancelled, "emission cancelled");
    const std::string& target = n.target;
    // torch.ops.* and edge/backend-dialect ops (most nodes) match none of the targets checked by name below.
    const bool opOverload = n.targetKind == TargetKind::OpOverload;
    if (!opOverload && (n.targetKind == TargetKind::HigherOrder || target.find("higher_order") != std::string::npos)) {
        const std::string op = n.op.empty() ? target.substr(target.rfind('.') + 1) : n.op;
        if (op == "cond")
            return lowerCond(n);
        if (op == "executorch_call_delegate")
            return lowerDelegate(n);
        if (op == "while_loop")
            return fail(nodeError(n, ErrorCode::Unsupported,
                "Unsupported control flow operator: ExecuTorch's emitter cannot emit while_loop"));
        if (op == "map_impl" || op == "map")
            return lowerMap(n);
        if (op == "scan")
            return lowerScan(n);
        if (op == "with_effects")
            return lowerWithEffects(n);
        return fail(nodeError(n, ErrorCode::Unsupported, "higher-order operator '" + op + "' cannot be emitted"));
    }
    if (!opOverload && (n.targetKind == TargetKind::MemoryAlloc || target == "memory.alloc")) {
        PTE_TRY(const auto outs, nodeOutputs(n));
        LInstr a;
        a.kind = LInstr::Kind::Alloc;
        a.allocs = outs;
        m_out.instrs.push_back(std::move(a));
        return {};
    }
    if (!opOverload
        && (n.targetKind == TargetKind::MemoryView || target == "executorch.exir.memory.view"
            || target == "memory.view"))
        return lowerMemoryView(n);
    if (!opOverload && target == "_operator.getitem") {
        if (n.inputs.size() < 2 || n.outputs.empty())
            return fail(nodeError(n, ErrorCode::InvalidInput, "malformed getitem"));
        const auto& src = n.inputs[0].arg;
        const auto idx = n.inputs[1].arg.ints.empty() ? 0 : n.inputs[1].arg.ints[0];
        if (idx < 0 || std::size_t(idx) >= src.names.size())
            return fail(nodeError(n, ErrorCode::InvalidInput, "getitem index out of range"));
        PTE_TRY(const int r, lookup(src.names[std::size_t(idx)], this->where(n)));
        alias(n, r);
        return {};
    }
    if (!opOverload
        && (n.targetKind == TargetKind::SymOp
            || (target.rfind("_operator.", 0) == 0 || target.rfind("math.", 0) == 0
                || target.rfind("torch.sym_", 0) == 0)))
        return lowerSymOp(n);
    const ResolvedTarget* r = resolve(n);
    if (!r)
        return fail(nodeError(n, ErrorCode::InvalidInput, "invalid target for call_function"));
    return lowerOp(*r, n);
}

const Lowering::ResolvedTarget* Lowering::resolve(const Node& n)
{
    // Most nodes call one of a few dozen operators: resolved once per (target, namespace, op, overload).
    const bool fromParts = !n.ns.empty() && !n.op.empty();
    const std::string_view overload = n.overload == "default" ? std::string_view() : std::string_view(n.overload);
    const auto it = m_resolved.find(n.target);
    if (it != m_resolved.end() && it->second.fromParts == fromParts
        && (!fromParts || (it->second.t.ns == n.ns && it->second.t.op == n.op && it->second.t.overload == overload)))
        return &it->second;
    ResolvedTarget r;
    r.fromParts = fromParts;
    if (fromParts) {
        r.t = TargetName { n.ns, n.op, std::string(overload) };
    } else {
        auto t = parseTarget(n.target);
        if (!t)
            return nullptr;
        r.t = std::move(*t);
    }
    r.q = r.t.ns + "::" + r.t.op;
    r.schema = m_reg.find(r.q, r.t.overload);
    // Views become their *_copy forms (edge dialect).
    static const std::unordered_map<std::string_view, std::pair<std::string, std::string>> kViews = {
        { "aten::permute", { "aten::permute_copy", "" } },
        { "aten::expand", { "aten::expand_copy", "" } },
        { "aten::unsqueeze", { "aten::unsqueeze_copy", "" } },
        { "aten::select", { "aten::select_copy", "int" } },
        { "aten::slice", { "aten::slice_copy", "Tensor" } },
        { "aten::alias", { "aten::alias_copy", "" } },
        { "aten::detach", { "aten::detach_copy", "" } },
        { "aten::split", { "aten::split_copy", "Tensor" } },
        { "aten::split_with_sizes", { "aten::split_with_sizes_copy", "" } },
        { "aten::unbind", { "aten::unbind_copy", "int" } },
        { "aten::transpose", { "aten::transpose_copy", "int" } },
        { "aten::as_strided", { "aten::as_strided_copy", "" } },
        { "aten::diagonal", { "aten::diagonal_copy", "" } },
        { "aten::unfold", { "aten::unfold_copy", "" } },
        { "aten::view_as_real", { "aten::view_as_real_copy", "" } },
    };
    if (const auto v = kViews.find(r.q); v != kViews.end()) {
        r.isView = true;
        r.viewSchema = m_reg.find(v->second.first, v->second.second);
    }
    if (it != m_resolved.end())
        return &(it->second = std::move(r));
    return &m_resolved.emplace(n.target, std::move(r)).first->second;
}

Result<void> Lowering::lowerOp(const ResolvedTarget& r, const Node& n)
{
    const TargetName& t = r.t;
    PTE_TRY(const bool done, decompose(t, n));
    if (done)
        return {};
    const std::string& q = r.q;
    const OpSchema* s = nullptr;
    const OpSchema* bindSchema = r.schema;
    // A Python scalar passed for a Tensor parameter (add.Tensor(x, 1)): use the Scalar overload, as the
    // edge dialect does.
    if (bindSchema && !bindSchema->isOutFn()) {
        for (const auto& in : n.inputs) {
            if (in.arg.kind != ArgKind::Int && in.arg.kind != ArgKind::Float && in.arg.kind != ArgKind::Bool)
                continue;
            const int idx = bindSchema->argIndex(in.name);
            if (idx < 0 || bindSchema->args[std::size_t(idx)].type.base != BaseType::Tensor
                || bindSchema->args[std::size_t(idx)].type.isList)
                continue;
            for (const OpSchema* cand : m_reg.overloads(q)) {
                const int ci = cand->argIndex(in.name);
                if (cand->isOutFn() || ci < 0 || cand->args[std::size_t(ci)].type.base != BaseType::Scalar
                    || cand->args.size() != bindSchema->args.size())
                    continue;
                bindSchema = cand;
                break;
            }
            break;
        }
    }
    s = r.isView && bindSchema ? r.viewSchema : bindSchema;
    if (!s)
        return emitUnknown(t, n);
    if (s->isOutFn() || s->isSymOp())
        return emitFunctionalAsIs(*s, n);
    const OpSchema* out = m_reg.outVariant(*s);
    if (!out) {
        const bool inPlace =
            std::any_of(s->args.begin(), s->args.end(), [](const SchemaArg& a) { return a.type.mutates; });
        if (!inPlace && !s->returns.empty())
            warn(this->where(n) + ": no out variant of " + s->key() + " is known; emitted in functional form",
                n.jsonPath);
        return emitFunctionalAsIs(*s, n);
    }
    PTE_TRY(auto given, bindArgs(*bindSchema, n));
    PTE_TRY(const auto outs, nodeOutputs(n));
    // Arguments the out form does not take (dtype/layout/device of factory functions) are dropped.
    for (auto it = given.begin(); it != given.end();)
        it = out->argIndex(it->first) < 0 ? given.erase(it) : std::next(it);
    return emitKernel(*out, std::move(given), outs, n);
}

Result<bool> Lowering::decompose(const TargetName& t, const Node& n)
{
    if (t.ns != "aten")
        return false;
    static const std::unordered_set<std::string_view> kDecomposed = { "linear", "conv1d", "conv2d", "conv3d",
        "_convolution", "batch_norm", "native_batch_norm", "_native_batch_norm_legit_functional",
        "_native_batch_norm_legit", "layer_norm", "dropout", "feature_dropout", "alpha_dropout", "native_dropout",
        "max_pool2d_with_indices_backward", "matmul", "flatten", "view", "_unsafe_view", "reshape", "view_copy", "t",
        "transpose", "contiguous", "squeeze", "to", "_to_copy", "softmax", "log_softmax", "sum", "zeros", "ones",
        "zeros_like", "ones_like", "max_pool2d", "silu", "clone", "empty", "adaptive_avg_pool2d", "hardswish",
        "hardsigmoid", "mse_loss", "sigmoid_backward", "tanh_backward", "threshold_backward",
        "_log_softmax_backward_data" };
    if (!kDecomposed.count(t.op))
        return false;
    const std::string q = t.ns + "::" + t.op;
    const Where where = this->where(n);
    auto need = [&](const char* name, const char* ovl) -> Result<const OpSchema*> {
        const OpSchema* s = m_reg.find(name, ovl);
        if (!s)
            return fail(
                nodeError(n, ErrorCode::Internal, std::string("schema ") + name + " missing from the registry"));
        return s;
    };
    auto bound = [&](const char* name, const char* ovl) -> Result<ArgMap> {
        PTE_TRY(const OpSchema* s, need(name, ovl));
        PTE_TRY(auto a, bindArgs(*s, n));
        // torch.export omits arguments left at their default (conv2d(x, w, b) has no stride, padding, dilation
        // or groups): the composite's own defaults apply, since the op it becomes may have none.
        for (const auto& sa : s->args) {
            if (a.count(sa.name) || !sa.defaultValue)
                continue;
            PTE_TRY(auto d, defaultArg(sa, where));
            a[sa.name] = std::move(d);
        }
        return a;
    };
    auto tensorRef = [&](const ArgMap& a, const char* name) -> int {
        const auto it = a.find(name);
        return it == a.end() || it->second.kind != LArg::Kind::Tensor ? -1 : it->second.ref;
    };
    auto val = [&](int ref) -> const LValue& { return m_out.values[std::size_t(ref)]; };
    auto isStatic = [&](int ref) { return val(ref).dynamism == ShapeDynamism::Static; };
    // A temporary with the sizes (upper bounds), dim order and dynamism of `like`.
    auto tempLike = [&](int like) -> int {
        const int tmp = newTemp(n.name, val(like).dtype, val(like).sizes, val(like).dimOrder);
        m_out.values[std::size_t(tmp)].dynamism = val(like).dynamism;
        return tmp;
    };
    auto viewTo = [&](int src, std::vector<std::int32_t> sizes, int dst = -1) -> Result<int> {
        if (dst < 0)
            dst = newTemp(n.name, val(src).dtype, sizes);
        PTE_TRY(const OpSchema* vc, need("aten::view_copy", "out"));
        std::vector<std::int64_t> sz(sizes.begin(), sizes.end());
        PTE_CHECK(emitKernel(*vc, { { "self", LArg::tensor(src) }, { "size", LArg::intList(sz) } }, { dst }, n));
        return dst;
    };

    // linear -> permute_copy + addmm / mm (+ view_copy for other ranks)
    if (q == "aten::linear") {
        PTE_TRY(auto a, bound("aten::linear", ""));
        const int x = tensorRef(a, "input");
        const int w = tensorRef(a, "weight");
        const int b = tensorRef(a, "bias");
        if (x < 0 || w < 0 || val(w).sizes.size() != 2)
            return fail(nodeError(n, ErrorCode::InvalidInput, "linear needs an input and a 2-D weight"));
        PTE_TRY(const auto outs, nodeOutputs(n));
        if (outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "linear must have one output"));
        const auto outF = val(w).sizes[0];
        const auto inF = val(w).sizes[1];
        const int wt = newTemp(n.name, val(w).dtype, { inF, outF });
        PTE_TRY(const OpSchema* perm, need("aten::permute_copy", "out"));
        PTE_CHECK(emitKernel(*perm, { { "self", LArg::tensor(w) }, { "dims", LArg::intList({ 1, 0 }) } }, { wt }, n));
        const auto rank = val(x).sizes.size();
        int x2 = x;
        int y2 = outs[0];
        if (rank != 2) {
            if (!isStatic(x) || rank == 0)
                return fail(nodeError(n, ErrorCode::Unsupported, "linear on a dynamic or 0-D input is not supported"));
            std::int64_t lead = 1;
            for (std::size_t d = 0; d + 1 < rank; ++d)
                lead *= val(x).sizes[d];
            PTE_TRY(x2, viewTo(x, { std::int32_t(lead), inF }));
            y2 = newTemp(n.name, val(outs[0]).dtype, { std::int32_t(lead), outF });
        }
        if (b >= 0) {
            PTE_TRY(const OpSchema* addmm, need("aten::addmm", "out"));
            PTE_CHECK(emitKernel(*addmm,
                { { "self", LArg::tensor(b) }, { "mat1", LArg::tensor(x2) }, { "mat2", LArg::tensor(wt) } }, { y2 },
                n));
        } else {
            PTE_TRY(const OpSchema* mm, need("aten::mm", "out"));
            PTE_CHECK(emitKernel(*mm, { { "self", LArg::tensor(x2) }, { "mat2", LArg::tensor(wt) } }, { y2 }, n));
        }
        if (rank != 2) {
            PTE_TRY(const int r, viewTo(y2, val(outs[0]).sizes, outs[0]));
            (void)r;
        }
        return true;
    }
    // conv1d/2d/3d -> convolution
    if (q == "aten::conv1d" || q == "aten::conv2d" || q == "aten::conv3d" || q == "aten::_convolution") {
        if (!t.overload.empty())
            return fail(nodeError(n, ErrorCode::Unsupported, "convolution with padding='same'/'valid' strings"));
        PTE_TRY(auto a, bound(q.c_str(), ""));
        const std::int64_t dims = q == "aten::conv1d" ? 1 : q == "aten::conv2d" ? 2 : 3;
        a["transposed"] = LArg::boolean(false);
        a["output_padding"] = LArg::intList(std::vector<std::int64_t>(std::size_t(dims), 0));
        PTE_TRY(const auto outs, nodeOutputs(n));
        PTE_TRY(const OpSchema* conv, need("aten::convolution", "out"));
        PTE_CHECK(emitKernel(*conv, std::move(a), outs, n));
        return true;
    }
    // batch norm family
    if (q == "aten::batch_norm" || q == "aten::native_batch_norm" || q == "aten::_native_batch_norm_legit_functional"
        || (q == "aten::_native_batch_norm_legit" && (t.overload.empty() || t.overload == "no_stats"))) {
        PTE_TRY(auto a, bound(q.c_str(), t.overload.c_str()));
        bool training = false;
        if (const auto it = a.find("training"); it != a.end())
            training = it->second.b;
        PTE_TRY(const auto outs, nodeOutputs(n));
        if (outs.empty())
            return fail(nodeError(n, ErrorCode::InvalidInput, "batch norm without outputs"));
        const int x = tensorRef(a, "input");
        if (x < 0 || val(x).sizes.size() < 2)
            return fail(nodeError(n, ErrorCode::InvalidInput, "batch norm needs an input with a channel dimension"));
        const auto dt = val(outs[0]).dtype;
        const int rm = tensorRef(a, "running_mean");
        const int rv = tensorRef(a, "running_var");
        const bool functional = q == "aten::_native_batch_norm_legit_functional";
        // The functional form returns the running statistics (unchanged in inference, updated in training).
        auto defineStats = [&](int mean, int var) {
            if (functional && n.outputs.size() >= 5) {
                if (!n.outputs[3].names.empty() && mean >= 0)
                    define(n.outputs[3].names[0], mean);
                if (!n.outputs[4].names.empty() && var >= 0)
                    define(n.outputs[4].names[0], var);
            }
        };
        if (!training) {
            if (rm < 0 || rv < 0)
                return fail(nodeError(n, ErrorCode::InvalidInput, "inference batch norm needs running statistics"));
            // The portable kernel resizes its two statistics outputs to [0]: empty tensors (torch's CPU kernel
            // returns empty ones in inference too).
            auto empty = [&](std::size_t k) {
                return outs.size() > k && val(outs[k]).sizes == std::vector<std::int32_t> { 0 }
                    ? outs[k]
                    : newTemp(n.name, dt, { 0 });
            };
            std::vector<int> o { outs[0], empty(1), empty(2) };
            a.erase("cudnn_enabled");
            if (q == "aten::_native_batch_norm_legit" && t.overload.empty()) {
                // A core ATen op: the edge dialect keeps it, and its portable kernel runs inference.
                PTE_TRY(const OpSchema* bn, need("aten::_native_batch_norm_legit", "out"));
                PTE_CHECK(emitKernel(*bn, std::move(a), o, n));
                return true;
            }
            a.erase("training");
            PTE_TRY(const OpSchema* bn, need("aten::_native_batch_norm_legit_no_training", "out"));
            PTE_CHECK(emitKernel(*bn, std::move(a), o, n));
            defineStats(rm, rv);
            return true;
        }
        // Training mode: the portable kernels compute batch norm for inference only ("Portable kernels only support
        // inference mode"), so it is decomposed as torch's core decomposition (native_batch_norm_helper) does:
        //   var, mean = var_mean(x, dims = [0, 2, ...], correction = 0, keepdim = True)
        //   rstd = rsqrt(var + eps);  out = (x - mean) * rstd  [* weight + bias, as [1, C, 1, ...]]
        //   save_mean = squeeze(mean, dims);  save_rstd = squeeze(rstd, dims)
        //   running_mean' = momentum * save_mean + (1 - momentum) * running_mean
        //   running_var'  = momentum * squeeze(var, dims) * n / (n - 1) + (1 - momentum) * running_var,
        // n = numel / C. The in-place forms copy the new statistics into the running ones (copy_); the functional
        // form returns them.
        if (!isStatic(x))
            return fail(nodeError(n, ErrorCode::Unsupported, "training-mode batch norm of a dynamic input"));
        const auto xs = val(x).sizes; // copies: newTemp may reallocate the values
        const auto xOrder = val(x).dimOrder;
        const std::size_t rank = xs.size();
        const std::int32_t channels = xs[1];
        std::vector<std::int64_t> dims { 0 };
        std::vector<std::int32_t> statShape(rank, 1);
        statShape[1] = channels;
        for (std::size_t d = 2; d < rank; ++d)
            dims.push_back(std::int64_t(d));
        const double eps = a["eps"].kind == LArg::Kind::Double ? a["eps"].d : double(a["eps"].i);
        const double momentum = a["momentum"].kind == LArg::Kind::Double ? a["momentum"].d : double(a["momentum"].i);
        const int weight = tensorRef(a, "weight");
        const int bias = tensorRef(a, "bias");
        PTE_TRY(const OpSchema* varOut, need("aten::var", "correction_out"));
        PTE_TRY(const OpSchema* meanOut, need("aten::mean", "out"));
        PTE_TRY(const OpSchema* addS, need("aten::add", "Scalar_out"));
        PTE_TRY(const OpSchema* rsqrt, need("aten::rsqrt", "out"));
        PTE_TRY(const OpSchema* sub, need("aten::sub", "out"));
        PTE_TRY(const OpSchema* mul, need("aten::mul", "out"));
        PTE_TRY(const OpSchema* mulS, need("aten::mul", "Scalar_out"));
        PTE_TRY(const OpSchema* add, need("aten::add", "out"));
        PTE_TRY(const OpSchema* squeeze, need("aten::squeeze_copy", "dims_out"));
        auto temp = [&](const std::vector<std::int32_t>& shape) { return newTemp(n.name, dt, shape); };
        auto reduceArgs = [&](int src) -> ArgMap {
            return { { "self", LArg::tensor(src) }, { "dim", LArg::intList(dims) },
                { "keepdim", LArg::boolean(true) } };
        };
        const int var = temp(statShape);
        ArgMap va = reduceArgs(x);
        va["correction"] = LArg::integer(0);
        PTE_CHECK(emitKernel(*varOut, std::move(va), { var }, n));
        const int mean = temp(statShape);
        PTE_CHECK(emitKernel(*meanOut, reduceArgs(x), { mean }, n));
        const int varEps = temp(statShape);
        LArg epsArg;
        epsArg.kind = LArg::Kind::Double;
        epsArg.d = eps;
        PTE_CHECK(emitKernel(*addS, { { "self", LArg::tensor(var) }, { "other", epsArg } }, { varEps }, n));
        const int rstd = temp(statShape);
        PTE_CHECK(emitKernel(*rsqrt, { { "self", LArg::tensor(varEps) } }, { rstd }, n));
        const int centered = newTemp(n.name, dt, xs, xOrder);
        PTE_CHECK(emitKernel(*sub, { { "self", LArg::tensor(x) }, { "other", LArg::tensor(mean) } }, { centered }, n));
        const bool affine = weight >= 0 || bias >= 0;
        int cur = affine ? newTemp(n.name, dt, xs, xOrder) : outs[0];
        PTE_CHECK(
            emitKernel(*mul, { { "self", LArg::tensor(centered) }, { "other", LArg::tensor(rstd) } }, { cur }, n));
        // weight and bias broadcast over the channel dimension: viewed as [1, C, 1, ...].
        auto perChannel = [&](int p) -> Result<int> {
            if (rank == 2)
                return p; // [C] broadcasts against [N, C] as it is
            return viewTo(p, statShape);
        };
        if (weight >= 0) {
            PTE_TRY(const int w, perChannel(weight));
            const int next = bias >= 0 ? newTemp(n.name, dt, xs, xOrder) : outs[0];
            PTE_CHECK(emitKernel(*mul, { { "self", LArg::tensor(cur) }, { "other", LArg::tensor(w) } }, { next }, n));
            cur = next;
        }
        if (bias >= 0) {
            PTE_TRY(const int b, perChannel(bias));
            PTE_CHECK(
                emitKernel(*add, { { "self", LArg::tensor(cur) }, { "other", LArg::tensor(b) } }, { outs[0] }, n));
        }
        // save_mean and save_rstd (outputs 1 and 2), when the node has them with the squeezed shape.
        auto squeezed = [&](int src, std::size_t k) -> Result<int> {
            const bool given = outs.size() > k && val(outs[k]).sizes == std::vector<std::int32_t> { channels };
            const int dst = given ? outs[k] : temp({ channels });
            PTE_CHECK(
                emitKernel(*squeeze, { { "self", LArg::tensor(src) }, { "dim", LArg::intList(dims) } }, { dst }, n));
            return dst;
        };
        PTE_TRY(const int saveMean, squeezed(mean, 1));
        if (outs.size() > 2) {
            PTE_TRY(const int saveRstd, squeezed(rstd, 2));
            (void)saveRstd;
        }
        if (rm < 0 || rv < 0)
            return true;
        auto scaled = [&](int src, double factor, int dst) -> Result<void> {
            LArg f;
            f.kind = LArg::Kind::Double;
            f.d = factor;
            return emitKernel(*mulS, { { "self", LArg::tensor(src) }, { "other", f } }, { dst }, n);
        };
        std::int64_t count = 1; // elements per channel
        for (std::size_t d = 0; d < rank; ++d)
            count *= d == 1 ? 1 : xs[d];
        auto update = [&](int stat, int running) -> Result<int> {
            const int a1 = temp({ channels });
            PTE_CHECK(scaled(stat, momentum, a1));
            const int a2 = temp({ channels });
            PTE_CHECK(scaled(running, 1.0 - momentum, a2));
            const int updated = temp({ channels });
            PTE_CHECK(
                emitKernel(*add, { { "self", LArg::tensor(a1) }, { "other", LArg::tensor(a2) } }, { updated }, n));
            return updated;
        };
        PTE_TRY(const int newMean, update(saveMean, rm));
        const int varSqueezed = temp({ channels });
        PTE_CHECK(emitKernel(
            *squeeze, { { "self", LArg::tensor(var) }, { "dim", LArg::intList(dims) } }, { varSqueezed }, n));
        const int unbiased = temp({ channels });
        PTE_CHECK(scaled(varSqueezed, double(count) / double(std::max<std::int64_t>(count - 1, 1)), unbiased));
        PTE_TRY(const int newVar, update(unbiased, rv));
        if (functional) {
            defineStats(newMean, newVar);
            return true;
        }
        // In-place forms: the running statistics are updated (copy_). Statistics the signature does not list as
        // buffer mutations would be constants, which the runtime may map read-only and which would not keep their
        // state: they become mutable buffers, memory planned with the dump's bytes as initial state.
        const OpSchema* copy = m_reg.find("aten::copy_", "");
        for (const auto& [running, updated] : { std::pair { rm, newMean }, std::pair { rv, newVar } }) {
            if (val(running).storage == LValue::Storage::Constant) {
                auto& v = m_out.values[std::size_t(running)];
                v.storage = LValue::Storage::Planned;
                v.mutableBuffer = true;
                v.initialised = true;
                warn(where + ": running statistic '" + v.fqn.value_or(v.name)
                        + "' is updated in place but not listed as a buffer mutation: memory planned with its initial "
                          "state from the dump",
                    n.jsonPath);
            }
            LInstr in;
            in.kind = LInstr::Kind::Kernel;
            in.schema = copy;
            if (!copy)
                in.name = LInstr::OperatorName { "aten::copy_", "" };
            in.args = { LArg::tensor(running), LArg::tensor(updated), LArg::boolean(false) };
            in.retSlots = { LArg::tensor(running) };
            in.node = &n;
            in.origin = n.name;
            in.recordDebug = m_recordDebug;
            m_out.instrs.push_back(std::move(in));
        }
        return true;
    }
    if (q == "aten::layer_norm") {
        PTE_TRY(auto a, bound("aten::layer_norm", ""));
        const int x = tensorRef(a, "input");
        PTE_TRY(const auto outs, nodeOutputs(n));
        if (x < 0 || outs.empty())
            return fail(nodeError(n, ErrorCode::InvalidInput, "layer_norm needs an input and an output"));
        const auto& ns = a["normalized_shape"].ints;
        const auto rank = val(x).sizes.size();
        if (ns.size() > rank)
            return fail(nodeError(n, ErrorCode::InvalidInput, "normalized_shape is longer than the input rank"));
        std::vector<std::int32_t> stat(val(x).sizes.begin(), val(x).sizes.end() - std::ptrdiff_t(ns.size()));
        stat.resize(rank, 1);
        a.erase("cudnn_enable");
        const int mean = newTemp(n.name, val(x).dtype, stat);
        const int rstd = newTemp(n.name, val(x).dtype, stat);
        PTE_TRY(const OpSchema* ln, need("aten::native_layer_norm", "out"));
        PTE_CHECK(emitKernel(*ln, std::move(a), { outs[0], mean, rstd }, n));
        return true;
    }
    // dropout and native_dropout, as torch's decomposition of native_dropout defines them: in training,
    // mask = rand_like(x) > p and out = mask * x * (1 / (1 - p)) (p = 1: zeros); otherwise out = x and an all-true
    // mask. The portable native_dropout.out keeps elements without the 1 / (1 - p) scaling (measured on
    // ExecuTorch's runtime), so it is not used.
    if (q == "aten::dropout" || q == "aten::feature_dropout" || q == "aten::alpha_dropout"
        || q == "aten::native_dropout") {
        const bool native = q == "aten::native_dropout";
        PTE_TRY(auto a, bound(native ? "aten::native_dropout" : "aten::dropout", ""));
        const int x = tensorRef(a, "input");
        if (x < 0)
            return fail(nodeError(n, ErrorCode::InvalidInput, "dropout without an input tensor"));
        const LArg& trainArg = a["train"];
        const bool train = trainArg.kind == LArg::Kind::Null || trainArg.b; // native_dropout's train=None: training
        const double p = a["p"].kind == LArg::Kind::Double ? a["p"].d : double(a["p"].i);
        if (!train && !native) {
            alias(n, x); // identity in eval mode
            return true;
        }
        PTE_TRY(const auto outs, nodeOutputs(n));
        if (outs.empty() || (native && outs.size() != 2))
            return fail(nodeError(n, ErrorCode::InvalidInput, "dropout without its outputs"));
        if (!isStatic(x))
            return fail(nodeError(n, ErrorCode::Unsupported, "dropout of a dynamic tensor"));
        const auto sizes = val(x).sizes;
        const auto dt = val(x).dtype;
        const int mask = native ? outs[1] : newTemp(n.name, ScalarType::Bool, sizes);
        PTE_TRY(const OpSchema* fullLike, need("aten::full_like", "out"));
        PTE_TRY(const OpSchema* mulS, need("aten::mul", "Scalar_out"));
        auto scalar = [](double v) {
            LArg s;
            s.kind = LArg::Kind::Double;
            s.d = v;
            return s;
        };
        if (!train || p >= 1) {
            // eval (native_dropout): out = x * 1, mask all true; p = 1: out zeros, mask all false
            PTE_CHECK(emitKernel(*fullLike,
                { { "self", LArg::tensor(x) }, { "fill_value", LArg::boolean(!train ? true : false) } }, { mask }, n));
            PTE_CHECK(emitKernel(
                *mulS, { { "self", LArg::tensor(x) }, { "other", scalar(train ? 0.0 : 1.0) } }, { outs[0] }, n));
            return true;
        }
        PTE_TRY(const OpSchema* rand, need("aten::rand", "out"));
        PTE_TRY(const OpSchema* gtS, need("aten::gt", "Scalar_out"));
        PTE_TRY(const OpSchema* mul, need("aten::mul", "out"));
        const int r = newTemp(n.name, dt, sizes);
        PTE_CHECK(emitKernel(
            *rand, { { "size", LArg::intList(std::vector<std::int64_t>(sizes.begin(), sizes.end())) } }, { r }, n));
        PTE_CHECK(emitKernel(*gtS, { { "self", LArg::tensor(r) }, { "other", scalar(p) } }, { mask }, n));
        const int kept = newTemp(n.name, dt, sizes);
        PTE_CHECK(emitKernel(*mul, { { "self", LArg::tensor(mask) }, { "other", LArg::tensor(x) } }, { kept }, n));
        PTE_CHECK(emitKernel(
            *mulS, { { "self", LArg::tensor(kept) }, { "other", scalar(1.0 / (1.0 - p)) } }, { outs[0] }, n));
        return true;
    }
    // The portable max_pool2d_with_indices_backward writes only the positions of the maxima and leaves the rest of
    // grad_input as planned memory holds it (measured on ExecuTorch's runtime); PyTorch's grad_input is zero there.
    // A full.out of zeros into grad_input comes first.
    if (q == "aten::max_pool2d_with_indices_backward") {
        PTE_TRY(auto a, bound("aten::max_pool2d_with_indices_backward", ""));
        PTE_TRY(const auto outs, nodeOutputs(n));
        if (outs.size() != 1 || !isStatic(outs[0]))
            return fail(
                nodeError(n, ErrorCode::InvalidInput, "max_pool2d_with_indices_backward needs one static output"));
        PTE_TRY(const OpSchema* full, need("aten::full", "out"));
        PTE_TRY(const OpSchema* bw, need("aten::max_pool2d_with_indices_backward", "grad_input"));
        const auto& sizes = val(outs[0]).sizes;
        PTE_CHECK(emitKernel(*full,
            { { "size", LArg::intList(std::vector<std::int64_t>(sizes.begin(), sizes.end())) },
                { "fill_value", LArg::integer(0) } },
            outs, n));
        PTE_CHECK(emitKernel(*bw, std::move(a), outs, n));
        return true;
    }
    if (q == "aten::matmul") {
        PTE_TRY(auto a, bound("aten::matmul", ""));
        const int x = tensorRef(a, "self");
        const int y = tensorRef(a, "other");
        PTE_TRY(const auto outs, nodeOutputs(n));
        if (x < 0 || y < 0 || outs.size() != 1 || !isStatic(x) || !isStatic(y))
            return fail(nodeError(n, ErrorCode::Unsupported, "matmul is lowered for static tensors only"));
        const auto rx = val(x).sizes.size();
        const auto ry = val(y).sizes.size();
        if (rx == 0 || ry == 0)
            return fail(nodeError(n, ErrorCode::InvalidInput, "both arguments to matmul need to be at least 1D"));
        PTE_TRY(const OpSchema* mm, need("aten::mm", "out"));
        PTE_TRY(const OpSchema* bmm, need("aten::bmm", "out"));
        const auto xs = val(x).sizes; // copies: newTemp may reallocate the values
        const auto ys = val(y).sizes;
        const std::int32_t k = xs.back();
        if (rx == 2 && ry == 2) {
            PTE_CHECK(emitKernel(*mm, { { "self", LArg::tensor(x) }, { "mat2", LArg::tensor(y) } }, outs, n));
            return true;
        }
        if (rx == 3 && ry == 3 && xs[0] == ys[0]) {
            PTE_CHECK(emitKernel(*bmm, { { "self", LArg::tensor(x) }, { "mat2", LArg::tensor(y) } }, outs, n));
            return true;
        }
        if (ry <= 2) {
            // x's leading dimensions fold into rows (a 1-D x is one row), a 1-D y is a column: one mm.
            std::int32_t lead = 1;
            for (std::size_t d = 0; d + 1 < rx; ++d)
                lead *= xs[d];
            int x2 = x;
            if (rx != 2) {
                PTE_TRY(x2, viewTo(x, { lead, k }));
            }
            int y2 = y;
            if (ry == 1) {
                PTE_TRY(y2, viewTo(y, { k, 1 }));
            }
            const std::int32_t m = ry == 2 ? ys[1] : 1;
            const int o2 = newTemp(n.name, val(outs[0]).dtype, { lead, m });
            PTE_CHECK(emitKernel(*mm, { { "self", LArg::tensor(x2) }, { "mat2", LArg::tensor(y2) } }, { o2 }, n));
            PTE_TRY(const int r, viewTo(o2, val(outs[0]).sizes, outs[0]));
            (void)r;
            return true;
        }
        // Batched, as torch.matmul computes it: the batch dimensions broadcast (expand_copy), fold into one
        // (view_copy), one bmm, and the result viewed to the output's shape. A 1-D x is a single row.
        std::vector<std::int32_t> xm(xs.begin(), xs.end());
        if (rx == 1)
            xm.insert(xm.begin(), 1);
        const std::vector<std::int32_t> xBatch(xm.begin(), xm.end() - 2);
        const std::vector<std::int32_t> yBatch(ys.begin(), ys.end() - 2);
        const std::size_t nb = std::max(xBatch.size(), yBatch.size());
        std::vector<std::int32_t> batch(nb, 1);
        for (std::size_t d = 0; d < nb; ++d) {
            const std::int32_t bx = d + xBatch.size() < nb ? 1 : xBatch[d + xBatch.size() - nb];
            const std::int32_t by = d + yBatch.size() < nb ? 1 : yBatch[d + yBatch.size() - nb];
            if (bx != by && bx != 1 && by != 1)
                return fail(nodeError(n, ErrorCode::InvalidInput, "matmul batch dimensions do not broadcast"));
            batch[d] = bx == 1 ? by : bx;
        }
        std::int32_t batchSize = 1;
        for (const auto d : batch)
            batchSize *= d;
        const std::int32_t rows = xm[xm.size() - 2];
        const std::int32_t cols = ys.back();
        PTE_TRY(const OpSchema* expand, need("aten::expand_copy", "out"));
        auto batched = [&](int ref, const std::vector<std::int32_t>& shape, std::int32_t r,
                           std::int32_t c) -> Result<int> {
            std::vector<std::int32_t> full = batch;
            full.push_back(r);
            full.push_back(c);
            int cur = ref;
            if (shape != full) {
                std::vector<std::int32_t> srcShape(val(ref).sizes.begin(), val(ref).sizes.end());
                if (srcShape != shape) {
                    PTE_TRY(cur, viewTo(ref, shape));
                }
                const int e = newTemp(n.name, val(ref).dtype, full);
                PTE_CHECK(emitKernel(*expand,
                    { { "self", LArg::tensor(cur) },
                        { "size", LArg::intList(std::vector<std::int64_t>(full.begin(), full.end())) } },
                    { e }, n));
                cur = e;
            }
            if (full.size() != 3) {
                PTE_TRY(cur, viewTo(cur, { batchSize, r, c }));
            }
            return cur;
        };
        PTE_TRY(const int x3, batched(x, xm, rows, k));
        PTE_TRY(const int y3, batched(y, std::vector<std::int32_t>(ys.begin(), ys.end()), k, cols));
        const int o3 = newTemp(n.name, val(outs[0]).dtype, { batchSize, rows, cols });
        PTE_CHECK(emitKernel(*bmm, { { "self", LArg::tensor(x3) }, { "mat2", LArg::tensor(y3) } }, { o3 }, n));
        PTE_TRY(const int r, viewTo(o3, val(outs[0]).sizes, outs[0]));
        (void)r;
        return true;
    }
    if (q == "aten::flatten" || q == "aten::view" || q == "aten::_unsafe_view" || q == "aten::reshape"
        || q == "aten::view_copy") {
        PTE_TRY(const auto outs, nodeOutputs(n));
        if (n.inputs.empty() || outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "view needs one input and one output"));
        auto src = lookup(n.inputs[0].arg.names.empty() ? std::string() : n.inputs[0].arg.names[0], where);
        if (!src)
            return fail(withPath(n, src.error()));
        PTE_TRY(const OpSchema* vc, need("aten::view_copy", "out"));
        LArg size;
        if (q == "aten::flatten") {
            if (!isStatic(outs[0]))
                return fail(nodeError(n, ErrorCode::Unsupported, "flatten of a dynamic tensor"));
            const auto& s = val(outs[0]).sizes;
            size = LArg::intList(std::vector<std::int64_t>(s.begin(), s.end()));
        } else {
            if (n.inputs.size() < 2)
                return fail(nodeError(n, ErrorCode::InvalidInput, "view without a size"));
            auto sz = convertArg(n.inputs[1].arg, ArgType { BaseType::SymInt, false, true }, where);
            if (!sz)
                return fail(withPath(n, sz.error()));
            size = std::move(*sz);
            PTE_CHECK(checkViewSize(n, *src, outs[0], size));
        }
        PTE_CHECK(emitKernel(*vc, { { "self", LArg::tensor(*src) }, { "size", std::move(size) } }, outs, n));
        return true;
    }
    if (q == "aten::t" || q == "aten::transpose" || q == "aten::contiguous") {
        PTE_TRY(const auto outs, nodeOutputs(n));
        if (n.inputs.empty() || outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "expects one input and one output"));
        auto src = lookup(n.inputs[0].arg.names.empty() ? std::string() : n.inputs[0].arg.names[0], where);
        if (!src)
            return fail(withPath(n, src.error()));
        const auto rank = std::int64_t(val(*src).sizes.size());
        std::vector<std::int64_t> perm(static_cast<std::size_t>(rank), 0);
        std::iota(perm.begin(), perm.end(), 0);
        if (q == "aten::contiguous") { // clone(memory_format=contiguous_format), which the edge dialect makes
            std::vector<std::int64_t> order(std::size_t(rank), 0);
            std::iota(order.begin(), order.end(), 0);
            PTE_TRY(const OpSchema* cl, need("dim_order_ops::_clone_dim_order", "out"));
            PTE_CHECK(
                emitKernel(*cl, { { "self", LArg::tensor(*src) }, { "dim_order", LArg::intList(order) } }, outs, n));
            return true;
        }
        if (q == "aten::t") {
            if (rank == 2)
                std::swap(perm[0], perm[1]);
        } else {
            std::int64_t d0 = n.inputs.size() > 1 && !n.inputs[1].arg.ints.empty() ? n.inputs[1].arg.ints[0] : 0;
            std::int64_t d1 = n.inputs.size() > 2 && !n.inputs[2].arg.ints.empty() ? n.inputs[2].arg.ints[0] : 0;
            if (d0 < 0)
                d0 += rank;
            if (d1 < 0)
                d1 += rank;
            if (d0 < 0 || d1 < 0 || d0 >= std::max<std::int64_t>(rank, 1) || d1 >= std::max<std::int64_t>(rank, 1))
                return fail(nodeError(n, ErrorCode::InvalidInput, "transpose dimension out of range"));
            if (rank > 0)
                std::swap(perm[std::size_t(d0)], perm[std::size_t(d1)]);
        }
        PTE_TRY(const OpSchema* pc, need("aten::permute_copy", "out"));
        PTE_CHECK(emitKernel(*pc, { { "self", LArg::tensor(*src) }, { "dims", LArg::intList(perm) } }, outs, n));
        return true;
    }
    if (q == "aten::squeeze" && t.overload.empty()) {
        PTE_TRY(const auto outs, nodeOutputs(n));
        auto src =
            lookup(n.inputs.empty() || n.inputs[0].arg.names.empty() ? std::string() : n.inputs[0].arg.names[0], where);
        if (!src || outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "squeeze expects one input and one output"));
        std::vector<std::int64_t> dims;
        for (std::size_t d = 0; d < val(*src).sizes.size(); ++d)
            if (val(*src).sizes[d] == 1)
                dims.push_back(std::int64_t(d));
        PTE_TRY(const OpSchema* sq, need("aten::squeeze_copy", "dims_out"));
        PTE_CHECK(emitKernel(*sq, { { "self", LArg::tensor(*src) }, { "dim", LArg::intList(dims) } }, outs, n));
        return true;
    }
    if (q == "aten::squeeze") {
        PTE_TRY(auto a, bound("aten::squeeze", t.overload.c_str()));
        PTE_TRY(const auto outs, nodeOutputs(n));
        PTE_TRY(const OpSchema* sq, need("aten::squeeze_copy", t.overload == "dim" ? "dim_out" : "dims_out"));
        PTE_CHECK(emitKernel(*sq, std::move(a), outs, n));
        return true;
    }
    if (q == "aten::to" || q == "aten::_to_copy") {
        if (q == "aten::to" && t.overload != "dtype")
            return fail(nodeError(n, ErrorCode::Unsupported, "aten::to." + t.overload + " is not lowered"));
        PTE_TRY(const auto outs, nodeOutputs(n));
        auto src =
            lookup(n.inputs.empty() || n.inputs[0].arg.names.empty() ? std::string() : n.inputs[0].arg.names[0], where);
        if (!src || outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "expects one input tensor and one output"));
        PTE_TRY(auto dimOrder, memoryFormatDimOrder(n, val(*src).sizes.size()));
        PTE_TRY(const OpSchema* td, need("dim_order_ops::_to_dim_order_copy", "out"));
        PTE_CHECK(emitKernel(*td, { { "self", LArg::tensor(*src) }, { "dim_order", std::move(dimOrder) } }, outs, n));
        return true;
    }
    // clone and empty take a memory format, which ExecuTorch's MemoryFormatOpsPass turns into a dim order:
    // dim_order_ops::_clone_dim_order / _empty_dim_order (absent or contiguous_format: contiguous; preserve_format:
    // None, the input's layout; channels_last: [0, 2, 3, 1]).
    if (q == "aten::clone" || (q == "aten::empty" && t.overload == "memory_format")) {
        PTE_TRY(const auto outs, nodeOutputs(n));
        if (outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "expects one output"));
        PTE_TRY(auto dimOrder, memoryFormatDimOrder(n, val(outs[0]).sizes.size()));
        ArgMap a;
        if (q == "aten::clone") {
            auto src = lookup(
                n.inputs.empty() || n.inputs[0].arg.names.empty() ? std::string() : n.inputs[0].arg.names[0], where);
            if (!src)
                return fail(withPath(n, src.error()));
            a["self"] = LArg::tensor(*src);
        } else {
            const NamedArgument* size = n.input("size");
            if (!size)
                return fail(nodeError(n, ErrorCode::InvalidInput, "empty without a size"));
            auto sz = convertArg(size->arg, ArgType { BaseType::SymInt, false, true }, where);
            if (!sz)
                return fail(withPath(n, sz.error()));
            a["size"] = std::move(*sz);
        }
        a["dim_order"] = std::move(dimOrder);
        PTE_TRY(const OpSchema* op,
            need(q == "aten::clone" ? "dim_order_ops::_clone_dim_order" : "dim_order_ops::_empty_dim_order", "out"));
        PTE_CHECK(emitKernel(*op, std::move(a), outs, n));
        return true;
    }
    if (q == "aten::softmax" || q == "aten::log_softmax") {
        PTE_TRY(auto a, bound(q.c_str(), "int"));
        PTE_TRY(const auto outs, nodeOutputs(n));
        a.erase("dtype");
        a["half_to_float"] = LArg::boolean(false);
        PTE_TRY(const OpSchema* sm, need(q == "aten::softmax" ? "aten::_softmax" : "aten::_log_softmax", "out"));
        PTE_CHECK(emitKernel(*sm, std::move(a), outs, n));
        return true;
    }
    if (q == "aten::sum" && t.overload.empty()) {
        PTE_TRY(auto a, bound("aten::sum", ""));
        PTE_TRY(const auto outs, nodeOutputs(n));
        PTE_TRY(const OpSchema* s, need("aten::sum", "IntList_out"));
        PTE_CHECK(emitKernel(*s, std::move(a), outs, n));
        return true;
    }
    if (q == "aten::zeros" || q == "aten::ones" || q == "aten::zeros_like" || q == "aten::ones_like") {
        PTE_TRY(auto a, bound(q.c_str(), ""));
        PTE_TRY(const auto outs, nodeOutputs(n));
        const bool like = q.find("_like") != std::string::npos;
        ArgMap g;
        if (!like) { // zeros.out / ones.out (the portable kernels have both)
            g["size"] = a["size"];
            PTE_TRY(const OpSchema* f, need(q.c_str(), "out"));
            PTE_CHECK(emitKernel(*f, std::move(g), outs, n));
            return true;
        }
        g["self"] = a["self"];
        g["fill_value"] = LArg::integer(q.find("ones") != std::string::npos ? 1 : 0);
        PTE_TRY(const OpSchema* f, need("aten::full_like", "out"));
        PTE_CHECK(emitKernel(*f, std::move(g), outs, n));
        return true;
    }
    if (q == "aten::max_pool2d") {
        PTE_TRY(auto a, bound("aten::max_pool2d", ""));
        PTE_TRY(const auto outs, nodeOutputs(n));
        if (outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "max_pool2d must have one output"));
        const int idx = newTemp(n.name, ScalarType::Long, val(outs[0]).sizes, val(outs[0]).dimOrder);
        PTE_TRY(const OpSchema* mp, need("aten::max_pool2d_with_indices", "out"));
        PTE_CHECK(emitKernel(*mp, std::move(a), { outs[0], idx }, n));
        return true;
    }
    if (q == "aten::adaptive_avg_pool2d") {
        PTE_TRY(auto a, bound("aten::adaptive_avg_pool2d", ""));
        PTE_TRY(const auto outs, nodeOutputs(n));
        const auto& size = a["output_size"].ints;
        if (size.size() == 2 && size[0].ref < 0 && size[1].ref < 0 && size[0].literal == 1 && size[1].literal == 1) {
            // ATen's composite: global pooling is the mean over the last two dimensions (keepdim).
            PTE_TRY(const OpSchema* mean, need("aten::mean", "out"));
            PTE_CHECK(emitKernel(*mean,
                { { "self", a["self"] }, { "dim", LArg::intList({ -1, -2 }) }, { "keepdim", LArg::boolean(true) } },
                outs, n));
            return true;
        }
        // Output sizes that divide the (static) input's height and width: every window is the same
        // (H/oh, W/ow) block, which is avg_pool2d with kernel = stride and no padding.
        const int x = tensorRef(a, "self");
        const auto rank = x >= 0 ? val(x).sizes.size() : 0;
        if (size.size() == 2 && size[0].ref < 0 && size[1].ref < 0 && size[0].literal > 0 && size[1].literal > 0
            && (rank == 3 || rank == 4) && isStatic(x)) {
            const std::int64_t h = val(x).sizes[rank - 2];
            const std::int64_t w = val(x).sizes[rank - 1];
            if (h > 0 && w > 0 && h % size[0].literal == 0 && w % size[1].literal == 0) {
                const std::vector<std::int64_t> kernel { h / size[0].literal, w / size[1].literal };
                PTE_TRY(const OpSchema* avg, need("aten::avg_pool2d", "out"));
                PTE_CHECK(emitKernel(*avg,
                    { { "self", a["self"] }, { "kernel_size", LArg::intList(kernel) },
                        { "stride", LArg::intList(kernel) }, { "padding", LArg::intList({ 0, 0 }) } },
                    outs, n));
                return true;
            }
        }
        // Other sizes: ATen's _adaptive_avg_pool2d, which the portable kernels implement.
        PTE_TRY(const OpSchema* ap, need("aten::_adaptive_avg_pool2d", "out"));
        PTE_CHECK(emitKernel(*ap, std::move(a), outs, n));
        return true;
    }
    // mse_loss(x, y, reduction) = (x - y) ** 2, then mean, sum or nothing, as PyTorch's decomposition defines it
    // (the portable kernels have no mse_loss.out). Broadcasting operands stay mse_loss.out.
    if (q == "aten::mse_loss") {
        PTE_TRY(auto a, bound("aten::mse_loss", ""));
        PTE_TRY(const auto outs, nodeOutputs(n));
        const int x = tensorRef(a, "self");
        const int y = tensorRef(a, "target");
        if (x < 0 || y < 0 || outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "mse_loss needs two input tensors and one output"));
        const auto& r = a["reduction"];
        const std::int64_t reduction = r.kind == LArg::Kind::Int ? r.i : -1;
        if (reduction < 0 || reduction > 2 || val(x).sizes != val(y).sizes || val(x).dtype != val(y).dtype) {
            PTE_TRY(const OpSchema* mse, need("aten::mse_loss", "out"));
            PTE_CHECK(emitKernel(*mse, std::move(a), outs, n));
            return true;
        }
        PTE_TRY(const OpSchema* sub, need("aten::sub", "out"));
        PTE_TRY(const OpSchema* pow, need("aten::pow", "Tensor_Scalar_out"));
        const int diff = tempLike(x);
        PTE_CHECK(emitKernel(*sub, { { "self", LArg::tensor(x) }, { "other", LArg::tensor(y) } }, { diff }, n));
        const int squared = reduction == 0 ? outs[0] : tempLike(x);
        PTE_CHECK(
            emitKernel(*pow, { { "self", LArg::tensor(diff) }, { "exponent", LArg::integer(2) } }, { squared }, n));
        if (reduction == 1) {
            PTE_TRY(const OpSchema* mean, need("aten::mean", "dtype_out"));
            PTE_CHECK(emitKernel(*mean, { { "self", LArg::tensor(squared) } }, outs, n));
        } else if (reduction == 2) {
            PTE_TRY(const OpSchema* sum, need("aten::sum", "IntList_out"));
            PTE_CHECK(emitKernel(*sum, { { "self", LArg::tensor(squared) }, { "dim", LArg {} } }, outs, n));
        }
        return true;
    }
    // Backward ops of training graphs, as PyTorch's decompositions define them (no portable kernels):
    // sigmoid_backward(g, y) = g * (y * (1 - y)), tanh_backward(g, y) = g * (1 - y * y),
    // threshold_backward(g, x, t) = where(x <= t, 0, g) (a masked_fill), and
    // _log_softmax_backward_data(g, y, dim) = g - exp(y) * sum(g, dim, keepdim).
    if (q == "aten::sigmoid_backward" || q == "aten::tanh_backward") {
        PTE_TRY(auto a, bound(q.c_str(), ""));
        PTE_TRY(const auto outs, nodeOutputs(n));
        const int g = tensorRef(a, "grad_output");
        const int y = tensorRef(a, "output");
        if (g < 0 || y < 0 || outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, t.op + " needs two input tensors and one output"));
        PTE_TRY(const OpSchema* rsub, need("aten::rsub", "Scalar_out"));
        PTE_TRY(const OpSchema* mul, need("aten::mul", "out"));
        auto oneMinus = [&](int v) -> Result<int> {
            const int r = tempLike(y);
            PTE_CHECK(emitKernel(*rsub, { { "self", LArg::tensor(v) }, { "other", LArg::integer(1) } }, { r }, n));
            return r;
        };
        auto times = [&](int l, int r, int dst) -> Result<void> {
            return emitKernel(*mul, { { "self", LArg::tensor(l) }, { "other", LArg::tensor(r) } }, { dst }, n);
        };
        int factor = -1;
        if (q == "aten::sigmoid_backward") {
            PTE_TRY(const int c, oneMinus(y));
            factor = tempLike(y);
            PTE_CHECK(times(y, c, factor));
        } else {
            const int sq = tempLike(y);
            PTE_CHECK(times(y, y, sq));
            PTE_TRY(factor, oneMinus(sq));
        }
        PTE_CHECK(times(g, factor, outs[0]));
        return true;
    }
    if (q == "aten::threshold_backward") {
        PTE_TRY(auto a, bound("aten::threshold_backward", ""));
        PTE_TRY(const auto outs, nodeOutputs(n));
        const int g = tensorRef(a, "grad_output");
        const int x = tensorRef(a, "self");
        if (g < 0 || x < 0 || outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "threshold_backward needs two tensors and one output"));
        if (val(g).sizes != val(x).sizes) {
            PTE_TRY(const OpSchema* tb, need("aten::threshold_backward", "grad_input"));
            PTE_CHECK(emitKernel(*tb, std::move(a), outs, n));
            return true;
        }
        PTE_TRY(const OpSchema* le, need("aten::le", "Scalar_out"));
        PTE_TRY(const OpSchema* fill, need("aten::masked_fill", "Scalar_out"));
        const int mask = tempLike(x);
        m_out.values[std::size_t(mask)].dtype = ScalarType::Bool;
        PTE_CHECK(emitKernel(*le, { { "self", LArg::tensor(x) }, { "other", a["threshold"] } }, { mask }, n));
        PTE_CHECK(emitKernel(*fill,
            { { "self", LArg::tensor(g) }, { "mask", LArg::tensor(mask) }, { "value", LArg::integer(0) } }, outs, n));
        return true;
    }
    if (q == "aten::_log_softmax_backward_data") {
        PTE_TRY(auto a, bound("aten::_log_softmax_backward_data", ""));
        PTE_TRY(const auto outs, nodeOutputs(n));
        const int g = tensorRef(a, "grad_output");
        const int y = tensorRef(a, "output");
        if (g < 0 || y < 0 || outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "_log_softmax_backward_data needs two tensors"));
        const auto rank = std::int64_t(val(g).sizes.size());
        std::int64_t dim = a["dim"].i;
        if (dim < 0)
            dim += rank;
        const auto& dt = a["input_dtype"];
        if (dim < 0 || dim >= std::max<std::int64_t>(rank, 1)
            || (dt.kind == LArg::Kind::Int && dt.i != std::int64_t(val(g).dtype))) {
            // A cast back to another input dtype is not decomposed.
            PTE_TRY(const OpSchema* lsb, need("aten::_log_softmax_backward_data", "out"));
            PTE_CHECK(emitKernel(*lsb, std::move(a), outs, n));
            return true;
        }
        PTE_TRY(const OpSchema* sum, need("aten::sum", "IntList_out"));
        PTE_TRY(const OpSchema* exp, need("aten::exp", "out"));
        PTE_TRY(const OpSchema* mul, need("aten::mul", "out"));
        PTE_TRY(const OpSchema* sub, need("aten::sub", "out"));
        const int total = tempLike(g);
        if (rank > 0)
            m_out.values[std::size_t(total)].sizes[std::size_t(dim)] = 1;
        PTE_CHECK(emitKernel(*sum,
            { { "self", LArg::tensor(g) }, { "dim", LArg::intList({ dim }) }, { "keepdim", LArg::boolean(true) } },
            { total }, n));
        const int e = tempLike(y);
        PTE_CHECK(emitKernel(*exp, { { "self", LArg::tensor(y) } }, { e }, n));
        const int scaled = tempLike(y);
        PTE_CHECK(emitKernel(*mul, { { "self", LArg::tensor(e) }, { "other", LArg::tensor(total) } }, { scaled }, n));
        PTE_CHECK(emitKernel(*sub, { { "self", LArg::tensor(g) }, { "other", LArg::tensor(scaled) } }, outs, n));
        return true;
    }
    // silu(x) = x * sigmoid(x), as torch's decomposition defines it: the portable kernels have no silu.out.
    if (q == "aten::silu") {
        PTE_TRY(auto a, bound("aten::silu", ""));
        PTE_TRY(const auto outs, nodeOutputs(n));
        const int x = tensorRef(a, "self");
        if (x < 0 || outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, "silu needs one input tensor and one output"));
        PTE_TRY(const OpSchema* sigmoid, need("aten::sigmoid", "out"));
        PTE_TRY(const OpSchema* mul, need("aten::mul", "out"));
        const int s = tempLike(outs[0]);
        PTE_CHECK(emitKernel(*sigmoid, { { "self", LArg::tensor(x) } }, { s }, n));
        PTE_CHECK(emitKernel(*mul, { { "self", LArg::tensor(x) }, { "other", LArg::tensor(s) } }, outs, n));
        return true;
    }
    // hardswish(x) = x * clamp(x + 3, 0, 6) / 6 and hardsigmoid(x) = clamp(x + 3, 0, 6) / 6, as PyTorch's
    // decompositions define them: the portable kernels have neither hardswish.out nor hardsigmoid.out.
    if (q == "aten::hardswish" || q == "aten::hardsigmoid") {
        PTE_TRY(auto a, bound(q.c_str(), ""));
        PTE_TRY(const auto outs, nodeOutputs(n));
        const int x = tensorRef(a, "self");
        if (x < 0 || outs.size() != 1)
            return fail(nodeError(n, ErrorCode::InvalidInput, t.op + " needs one input tensor and one output"));
        PTE_TRY(const OpSchema* addS, need("aten::add", "Scalar_out"));
        PTE_TRY(const OpSchema* clamp, need("aten::clamp", "out"));
        PTE_TRY(const OpSchema* mul, need("aten::mul", "out"));
        PTE_TRY(const OpSchema* divS, need("aten::div", "Scalar_out"));
        const int shifted = tempLike(outs[0]);
        PTE_CHECK(emitKernel(*addS, { { "self", LArg::tensor(x) }, { "other", LArg::integer(3) } }, { shifted }, n));
        const int clamped = tempLike(outs[0]);
        PTE_CHECK(emitKernel(*clamp,
            { { "self", LArg::tensor(shifted) }, { "min", LArg::integer(0) }, { "max", LArg::integer(6) } },
            { clamped }, n));
        int numerator = clamped;
        if (q == "aten::hardswish") {
            numerator = tempLike(outs[0]);
            PTE_CHECK(emitKernel(
                *mul, { { "self", LArg::tensor(x) }, { "other", LArg::tensor(clamped) } }, { numerator }, n));
        }
        PTE_CHECK(emitKernel(*divS, { { "self", LArg::tensor(numerator) }, { "other", LArg::integer(6) } }, outs, n));
        return true;
    }
    return false;
}

Result<void> Lowering::placeholders()
{
    const auto& g = m_ep.graph;
    const auto& specs = m_ep.signature.inputSpecs;
    if (specs.size() != g.inputs.size())
        return fail(ErrorCode::InvalidInput,
            "method '" + m_method + "': the graph has " + std::to_string(g.inputs.size())
                + " inputs but the signature lists " + std::to_string(specs.size()));
    std::set<std::string> mutatedBuffers;
    std::set<std::string> mutatedInputs;
    for (const auto& o : m_ep.signature.outputSpecs) {
        if (o.kind == OutputKind::BufferMutation || o.kind == OutputKind::ParameterMutation)
            mutatedBuffers.insert(o.target);
        if (o.kind == OutputKind::GradientToParameter)
            m_trainable.insert(o.target);
    }
    std::vector<std::string> plannedWithoutState; // mutable buffers whose dump bytes are not stored
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const auto& spec = specs[i];
        const auto& arg = g.inputs[i];
        const std::string where = "input " + std::to_string(i);
        LPlaceholder ph;
        if (spec.kind == InputKind::Token)
            continue;
        if (spec.kind == InputKind::CustomObj)
            return fail(ErrorCode::Unsupported,
                "method '" + m_method + "': Custom class '" + spec.target + "' is not supported in EXIR");
        if (spec.kind == InputKind::ConstantInput) {
            PTE_TRY(ph.literal, convertUntyped(spec.constantValue, where));
            ph.kind = LPlaceholder::Kind::Literal;
            ph.userInput = true;
            m_out.placeholders.push_back(std::move(ph));
            continue;
        }
        if (spec.kind == InputKind::UserInput) {
            ph.userInput = true;
            if (arg.kind == ArgKind::Tensor) {
                if (arg.names.empty() || arg.names[0].empty())
                    return fail(ErrorCode::InvalidInput, "method '" + m_method + "': " + where + " has no name");
                PTE_TRY(ph.ref, newTensorFromName(arg.names[0], where));
            } else if (arg.kind == ArgKind::SymInt || arg.kind == ArgKind::SymBool || arg.kind == ArgKind::SymFloat) {
                const std::string nm =
                    !arg.names.empty() ? arg.names[0] : (arg.syms.empty() ? std::string() : arg.syms[0].expr);
                ph.ref = newSym(nm);
                m_out.values[std::size_t(ph.ref)].symIsNull = true;
            } else {
                PTE_TRY(ph.literal, convertUntyped(arg, where));
                ph.kind = LPlaceholder::Kind::Literal;
            }
            m_out.placeholders.push_back(std::move(ph));
            continue;
        }
        // Parameters, buffers, lifted constants
        const std::string name = arg.names.empty() ? std::string() : arg.names[0];
        const std::string& fqn = spec.target;
        const auto w = m_ep.weights.find(fqn);
        const bool mutableBuffer = mutatedBuffers.count(fqn) > 0;
        const bool trainable = spec.kind == InputKind::Parameter && m_trainable.count(fqn) > 0;
        const TensorMeta* meta = w != m_ep.weights.end() ? &w->second.meta : findMeta(name);
        if (!meta)
            return fail(ErrorCode::InvalidInput,
                "method '" + m_method + "': placeholder '" + name + "' (" + fqn + ") has no tensor metadata");
        PTE_TRY(ph.ref, newTensor(name, *meta, where));
        define(name, ph.ref);
        auto& v = m_out.values[std::size_t(ph.ref)];
        v.fqn = fqn;
        if (v.dynamism != ShapeDynamism::Static)
            return fail(ErrorCode::Unsupported, "method '" + m_method + "': weight '" + fqn + "' has a dynamic shape");
        const auto nbytes = v.nbytes();
        Bytes data;
        if (w != m_ep.weights.end()) {
            const auto& wt = w->second;
            // Bytes are stored in dim order; non-dense or other permutations are gathered contiguous.
            std::vector<std::int64_t> strides;
            bool concrete = true;
            for (const auto& s : wt.meta.strides) {
                if (!s.value)
                    concrete = false;
                else
                    strides.push_back(*s.value);
            }
            const auto order = v.dimOrder;
            std::vector<std::int64_t> denseStrides(order.size());
            std::int64_t st = 1;
            for (std::size_t k = order.size(); k-- > 0;) {
                denseStrides[order[k]] = st;
                st *= std::max<std::int32_t>(v.sizes[order[k]], 1);
            }
            bool dense = !concrete || strides == denseStrides;
            for (std::size_t d = 0; d < v.sizes.size(); ++d)
                if (v.sizes[d] == 1 && d < strides.size())
                    strides[d] = denseStrides[d]; // size-1 dims: any stride
            dense = dense || strides == denseStrides;
            bool keepOrder = true;
            for (std::size_t d = 0; d < order.size(); ++d)
                keepOrder = keepOrder && order[d] == d;
            const bool channelsLast =
                order.size() == 4 && order[0] == 0 && order[1] == 2 && order[2] == 3 && order[3] == 1;
            if (dense && (keepOrder || channelsLast)) {
                if (wt.data.size() < nbytes)
                    return fail(ErrorCode::InvalidInput,
                        "method '" + m_method + "': Tensor spec has buffer of size " + std::to_string(wt.data.size())
                            + ", but expected nbytes of " + std::to_string(nbytes) + " (weight '" + fqn + "' from "
                            + wt.source + ")");
                data = wt.data.slice(0, nbytes);
            } else {
                // Gather into a contiguous copy.
                const auto es = elementSize(v.dtype);
                std::vector<std::uint8_t> out(nbytes);
                const auto numel = nbytes / std::max<std::size_t>(es, 1);
                std::vector<std::int64_t> idx(v.sizes.size(), 0);
                for (std::uint64_t e = 0; e < numel; ++e) {
                    std::int64_t off = 0;
                    for (std::size_t d = 0; d < idx.size(); ++d)
                        off += idx[d] * strides[d];
                    const auto byteOff = std::uint64_t(off) * es;
                    if (off < 0 || byteOff + es > wt.data.size())
                        return fail(ErrorCode::InvalidInput,
                            "method '" + m_method + "': weight '" + fqn + "' strides reach outside its storage");
                    std::memcpy(out.data() + e * es, wt.data.data() + byteOff, es);
                    for (std::size_t d = idx.size(); d-- > 0;) {
                        if (++idx[d] < v.sizes[d])
                            break;
                        idx[d] = 0;
                    }
                }
                data = Bytes::fromVector(std::move(out));
                v.dimOrder.resize(v.sizes.size());
                std::iota(v.dimOrder.begin(), v.dimOrder.end(), std::uint8_t(0));
            }
        } else if (!mutableBuffer || m_options.initialiseMutableBuffers) {
            if (m_options.zeroFillMissingWeights) {
                warn("weight '" + fqn + "' is missing from the dump; emitted as zeros");
                data = Bytes::fromVector(std::vector<std::uint8_t>(nbytes, 0));
            } else if (!mutableBuffer) {
                return fail(ErrorCode::InvalidInput,
                    "method '" + m_method + "': Could not find buffer with fqn '" + fqn + "' in the dump's weights ("
                        + m_ep.source + ")");
            } else {
                warn("mutable buffer '" + fqn
                    + "' has no bytes in the dump: it is memory planned without an initial state");
            }
        }
        if (mutableBuffer) {
            v.storage = LValue::Storage::Planned;
            v.mutableBuffer = true;
            if (m_options.initialiseMutableBuffers && nbytes > 0 && data.size() == nbytes) {
                // ExecuTorch's et_init_buffer (InitializedMutableBufferPass): planned, and its initial state stored
                // in the mutable data segment, which the runtime copies into planned memory at load.
                v.initialised = true;
                v.data = data;
            } else if (w != m_ep.weights.end() && !m_options.initialiseMutableBuffers) {
                plannedWithoutState.push_back(fqn);
            }
        } else if (trainable) {
            v.storage = LValue::Storage::Planned;
            v.mutableBuffer = true;
            v.initialised = true;
            v.data = data;
        } else {
            v.storage = LValue::Storage::Constant;
            v.data = data;
        }
        m_out.placeholders.push_back(std::move(ph));
    }
    warnPlannedWithoutState(plannedWithoutState);
    return {};
}

void Lowering::warnPlannedWithoutState(const std::vector<std::string>& fqns)
{
    // One warning for all of them: how many, the first few by name ("buffer 'x'", which the workbench resolves to
    // the buffer's placeholder), and the option as the user sees it.
    if (fqns.empty())
        return;
    constexpr std::size_t shown = 4;
    std::string which;
    if (fqns.size() == 1) {
        which = "mutable buffer '" + fqns[0] + "' is";
    } else {
        which = std::to_string(fqns.size()) + " mutable buffers (buffer";
        for (std::size_t i = 0; i < fqns.size() && i < shown; ++i)
            which += (i == 0 ? " '" : ", '") + fqns[i] + "'";
        if (fqns.size() > shown)
            which += " and " + std::to_string(fqns.size() - shown) + " more";
        which += ") are";
    }
    warn(which
        + " memory planned and the dump's initial state is not stored in the program: the first run starts from "
          "undefined memory (ExecuTorch's default, without et_init_buffer). To store it, tick \"Store mutable "
          "buffers' initial state\" in the Emit dialog or pass --init-mutable-buffers to ptelens-cli emit.");
}

Result<void> Lowering::writeBacksAndOutputs()
{
    const auto& g = m_ep.graph;
    const auto& specs = m_ep.signature.outputSpecs;
    if (specs.size() != g.outputs.size())
        return fail(ErrorCode::InvalidInput,
            "method '" + m_method + "': the graph has " + std::to_string(g.outputs.size())
                + " outputs but the signature lists " + std::to_string(specs.size()));
    // Write-backs (InsertWriteBackForBuffersPass): copy_ into the buffer / input, in output order.
    std::map<std::string, int> inputsByTarget;
    for (std::size_t i = 0; i < m_ep.signature.inputSpecs.size(); ++i) {
        const auto& is = m_ep.signature.inputSpecs[i];
        const auto& arg = g.inputs[i];
        if (arg.names.empty())
            continue;
        auto r = lookup(arg.names[0], "input");
        if (!r)
            continue;
        inputsByTarget[is.kind == InputKind::UserInput ? arg.names[0] : is.target] = *r;
    }
    const OpSchema* copy = m_reg.find("aten::copy_", "");
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const auto& os = specs[i];
        if (os.kind != OutputKind::BufferMutation && os.kind != OutputKind::UserInputMutation
            && os.kind != OutputKind::ParameterMutation)
            continue;
        const auto& arg = g.outputs[i];
        const std::string srcName = arg.names.empty() ? std::string() : arg.names[0];
        PTE_TRY(const int src, lookup(srcName, "output " + std::to_string(i)));
        const auto dst = inputsByTarget.find(os.target);
        if (dst == inputsByTarget.end())
            return fail(ErrorCode::InvalidInput,
                "method '" + m_method + "': output " + std::to_string(i) + " mutates '" + os.target
                    + "', which is not an input of the graph");
        if (dst->second == src)
            continue; // already updated in place
        LInstr in;
        in.kind = LInstr::Kind::Kernel;
        in.name = LInstr::OperatorName { "aten::copy_", "" };
        in.args = { LArg::tensor(dst->second), LArg::tensor(src), LArg::boolean(false) };
        in.retSlots = { LArg::tensor(dst->second) };
        in.origin = srcName;
        in.recordDebug = false;
        (void)copy;
        m_out.instrs.push_back(std::move(in));
    }
    // Outputs: drop what emission removes, keep the rest.
    std::int64_t index = 0;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        const auto& os = specs[i];
        const auto& arg = g.outputs[i];
        if (const char* reason = emissionDropReason(os.kind)) {
            m_out.dropped.emplace_back(arg.names.empty() ? os.target : arg.names[0], reason);
            continue;
        }
        if (arg.kind == ArgKind::String)
            return fail(ErrorCode::Unsupported,
                "method '" + m_method + "': Returning " + (arg.strings.empty() ? std::string() : arg.strings[0])
                    + " is not yet supported in the emitter");
        PTE_TRY(auto out, convertUntyped(arg, "output " + std::to_string(i)));
        if (os.kind == OutputKind::GradientToParameter) {
            if (m_out.gradientsIndex < 0)
                m_out.gradientsIndex = index;
            m_out.gradientFqns.push_back(os.target);
        }
        m_out.outputs.push_back(std::move(out));
        ++index;
    }
    // Joint graphs: ExecuTorch's weights_to_outputs_pass returns the trained parameters too.
    if (!m_trainable.empty()) {
        m_out.joint = true;
        for (std::size_t i = 0; i < m_ep.signature.inputSpecs.size(); ++i) {
            const auto& is = m_ep.signature.inputSpecs[i];
            if (is.kind != InputKind::Parameter || !m_trainable.count(is.target) || g.inputs[i].names.empty())
                continue;
            PTE_TRY(const int r, lookup(g.inputs[i].names[0], "parameter"));
            if (m_out.parametersIndex < 0)
                m_out.parametersIndex = index;
            m_out.outputs.push_back(LArg::tensor(r));
            ++index;
        }
    }
    return {};
}

void Lowering::computeLifetimes()
{
    std::int64_t pc = 0;
    auto touch = [&](int ref) {
        if (ref < 0)
            return;
        auto& v = m_out.values[std::size_t(ref)];
        if (v.first < 0 || pc < v.first)
            v.first = pc;
        v.last = std::max(v.last, pc);
    };
    auto touchArg = [&](const LArg& a) {
        touch(a.ref);
        for (const int r : a.refs)
            touch(r);
        for (const auto& e : a.ints)
            touch(e.ref);
    };
    for (const auto& p : m_out.placeholders)
        touch(p.ref);
    std::map<int, std::int64_t> labelPc;
    std::vector<std::pair<std::int64_t, std::int64_t>> loops; ///< [head, backward jump] of each map/scan loop
    for (const auto& in : m_out.instrs) {
        const bool real = in.kind == LInstr::Kind::Kernel || in.kind == LInstr::Kind::Delegate
            || in.kind == LInstr::Kind::JumpFalse || in.kind == LInstr::Kind::Move;
        if (in.kind == LInstr::Kind::Label)
            labelPc[in.label] = pc;
        if (in.kind == LInstr::Kind::JumpFalse) {
            const auto l = labelPc.find(in.label);
            if (l != labelPc.end()) // a backward jump closes a loop
                loops.emplace_back(l->second, pc);
        }
        for (const int r : in.allocs)
            touch(r);
        for (const auto& a : in.args)
            touchArg(a);
        for (const auto& a : in.retSlots)
            touchArg(a);
        for (const int r : in.delegateOuts)
            touch(r);
        if (in.cond)
            touchArg(*in.cond);
        touch(in.moveFrom);
        touch(in.moveTo);
        if (real)
            ++pc;
    }
    m_out.instructionCount = pc;
    for (const auto& o : m_out.outputs) {
        touch(o.ref);
        for (const int r : o.refs)
            touch(r);
    }
    // A view's uses keep its base alive (ExecuTorch merges the lifetimes of a _ViewSpec and its base).
    for (auto& v : m_out.values) {
        if (v.aliasOf < 0 || v.first < 0)
            continue;
        auto& b = m_out.values[std::size_t(v.aliasOf)];
        b.first = b.first < 0 ? v.first : std::min(b.first, v.first);
        b.last = std::max(b.last, v.last);
    }
    // Inside a loop, a value that is live on entry (defined before the head, used at or after it) is read
    // again by later iterations: it must stay allocated until the backward jump, so nothing defined inside the
    // loop may share its memory. Nested loops need no fixed point: an outer loop's range contains the inner's.
    for (const auto& [head, jump] : loops) {
        for (auto& v : m_out.values) {
            if (v.first >= 0 && v.first < head && v.last >= head)
                v.last = std::max(v.last, jump);
        }
    }
    for (auto& v : m_out.values) {
        if (v.mutableBuffer) {
            v.first = 0;
            v.last = pc;
        }
    }
}

Result<LoweredMethod> Lowering::run()
{
    m_scopes.emplace_back();
    const auto nodeCount = m_ep.graph.nodes.size();
    m_scopes.back().reserve(64); // symbols and other non-tensor names; tensors are in m_top
    m_out.values.reserve(2 * nodeCount + m_ep.graph.inputs.size() + 16);
    m_out.instrs.reserve(nodeCount + m_ep.signature.outputSpecs.size() + 16);
    m_graphs.push_back(&m_ep.graph);
    m_top.reserve(m_ep.graph.tensorValues.size());
    for (const auto& [name, meta] : m_ep.graph.tensorValues)
        m_top.insert(name, TopSlot { &meta, -1 });
    PTE_CHECK(placeholders());
    for (const auto& n : m_ep.graph.nodes)
        PTE_CHECK(lowerNode(n));
    PTE_CHECK(writeBacksAndOutputs());
    computeLifetimes();
    // Container metadata: the pytree specs of the top-level module call.
    for (const auto& e : m_ep.moduleCallGraph) {
        if (e.fqn.empty() && (e.inSpec || e.outSpec)) {
            m_out.containerMeta = ContainerMetadata { e.inSpec.value_or(""), e.outSpec.value_or("") };
            break;
        }
    }
    if (!m_out.containerMeta) {
        const std::string leaf = R"({"type": null, "context": null, "children_spec": []})";
        std::string inputs;
        std::size_t nUser = 0;
        for (const auto& p : m_out.placeholders)
            if (p.userInput)
                inputs += (nUser++ ? ", " : "") + leaf;
        std::string outs;
        for (std::size_t i = 0; i < m_out.outputs.size(); ++i)
            outs += (i ? ", " : "") + leaf;
        m_out.containerMeta = ContainerMetadata {
            R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.tuple", "context": "null", "children_spec": [)"
                + inputs + R"(]}, {"type": "builtins.dict", "context": "[]", "children_spec": []}]}])",
            m_out.outputs.size() == 1
                ? "[1, " + leaf + "]"
                : R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [)" + outs + "]}]",
        };
    }
    return std::move(m_out);
}

} // namespace

Result<LoweredMethod> lowerMethod(
    const ExportedProgram& ep, const std::string& methodName, const LoweringOptions& options)
{
    Lowering l(ep, methodName, options);
    return l.run();
}

} // namespace pte::emitcore
