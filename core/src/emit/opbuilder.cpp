// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/opbuilder.h"

#include "base/float16.h"
#include "emit/edgelayout.h"
#include "emit/lowering_p.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace pte::emitcore {

namespace {

std::string showShape(const std::vector<std::int32_t>& s)
{
    std::string r = "[";
    for (std::size_t k = 0; k < s.size(); ++k)
        r += (k ? ", " : "") + std::to_string(s[k]);
    return r + "]";
}

/** Rank within a category, for promotion among dtypes of the same category. */
int typeRank(ScalarType t)
{
    switch (t) {
    case ScalarType::Bool:
        return 0;
    case ScalarType::Byte:
        return 1;
    case ScalarType::Char:
        return 2;
    case ScalarType::Short:
        return 3;
    case ScalarType::Int:
        return 4;
    case ScalarType::Long:
        return 5;
    case ScalarType::Half:
    case ScalarType::BFloat16:
        return 6;
    case ScalarType::Float:
        return 7;
    case ScalarType::Double:
        return 8;
    default:
        return -1;
    }
}

/** Promotion of two dtypes of equal standing (torch.promote_types). */
ScalarType promotePair(ScalarType a, ScalarType b)
{
    if (a == b)
        return a;
    const int ca = dtypeCategory(a);
    const int cb = dtypeCategory(b);
    if (ca != cb)
        return ca > cb ? a : b;
    if ((a == ScalarType::Byte && b == ScalarType::Char) || (a == ScalarType::Char && b == ScalarType::Byte))
        return ScalarType::Short;
    if ((a == ScalarType::Half && b == ScalarType::BFloat16) || (a == ScalarType::BFloat16 && b == ScalarType::Half))
        return ScalarType::Float;
    return typeRank(a) >= typeRank(b) ? a : b;
}

bool bit(std::uint32_t mask, std::size_t d) { return d < 32 && ((mask >> d) & 1u) != 0; }

void storeElement(std::uint8_t* p, ScalarType t, double v)
{
    switch (t) {
    case ScalarType::Float: {
        const float f = float(v);
        std::memcpy(p, &f, 4);
        break;
    }
    case ScalarType::Double:
        std::memcpy(p, &v, 8);
        break;
    case ScalarType::Half: {
        const auto h = base::floatToHalf(float(v));
        std::memcpy(p, &h, 2);
        break;
    }
    case ScalarType::BFloat16: {
        const auto h = base::floatToBFloat16(float(v));
        std::memcpy(p, &h, 2);
        break;
    }
    case ScalarType::Bool:
        *p = v != 0 ? 1 : 0;
        break;
    case ScalarType::Byte:
        *p = std::uint8_t(std::int64_t(v));
        break;
    case ScalarType::Char:
        *p = std::uint8_t(std::int8_t(std::int64_t(v)));
        break;
    case ScalarType::Short: {
        const auto s = std::int16_t(std::int64_t(v));
        std::memcpy(p, &s, 2);
        break;
    }
    case ScalarType::Int: {
        const auto s = std::int32_t(std::int64_t(v));
        std::memcpy(p, &s, 4);
        break;
    }
    case ScalarType::Long: {
        const auto s = std::int64_t(v);
        std::memcpy(p, &s, 8);
        break;
    }
    default:
        break;
    }
}

} // namespace

ScalarType promoteTypes(ScalarType a, bool aZeroDim, ScalarType b, bool bZeroDim)
{
    // A rank-0 tensor takes part in promotion only when its category is higher than the other operand's.
    if (aZeroDim == bZeroDim)
        return promotePair(a, b);
    const ScalarType dimmed = aZeroDim ? b : a;
    const ScalarType zero = aZeroDim ? a : b;
    return dtypeCategory(zero) > dtypeCategory(dimmed) ? zero : dimmed;
}

OpBuilder::OpBuilder(Lowering& lowering, const Node& node)
    : m_l(lowering)
    , m_n(node)
{ }

Result<void> OpBuilder::status() const
{
    if (m_error)
        return fail(*m_error);
    return {};
}

int OpBuilder::error(ErrorCode code, const std::string& what)
{
    if (!m_error)
        m_error = m_l.nodeError(m_n, code, what);
    return -1;
}

const LValue& OpBuilder::val(int v) const { return m_l.m_out.values[std::size_t(v)]; }
std::size_t OpBuilder::rank(int v) const { return val(v).sizes.size(); }
ScalarType OpBuilder::dtype(int v) const { return val(v).dtype; }

std::int32_t OpBuilder::size(int v, std::int64_t d) const
{
    const auto r = std::int64_t(rank(v));
    if (d < 0)
        d += r;
    return d >= 0 && d < r ? val(v).sizes[std::size_t(d)] : 1;
}

std::vector<std::int32_t> OpBuilder::sizes(int v) const { return val(v).sizes; }

bool OpBuilder::isDynamic(int v, std::int64_t d) const
{
    const auto r = std::int64_t(rank(v));
    if (d < 0)
        d += r;
    return bit(val(v).dynamicDims, std::size_t(d));
}

bool OpBuilder::isStatic(int v) const { return val(v).dynamicDims == 0 && val(v).dynamism == ShapeDynamism::Static; }

std::int64_t OpBuilder::wrapDim(std::int64_t d, std::size_t r)
{
    const auto n = std::max<std::int64_t>(std::int64_t(r), 1);
    if (d < -n || d >= n) {
        error(ErrorCode::InvalidInput,
            "dimension " + std::to_string(d) + " is out of range for a rank-" + std::to_string(r) + " tensor");
        return -1;
    }
    return d < 0 ? d + n : d;
}

Dims OpBuilder::lits(const std::vector<std::int64_t>& v)
{
    Dims d;
    d.reserve(v.size());
    for (const auto x : v)
        d.push_back(lit(x));
    return d;
}

int OpBuilder::symValue(std::int64_t upperBound)
{
    const int id = m_l.newSym(m_n.name + "_sym" + std::to_string(m_l.m_temps++));
    m_l.m_symBounds[id] = upperBound;
    return id;
}

IntElem OpBuilder::dim(int v, std::int64_t d)
{
    if (failed())
        return lit(1);
    const auto r = rank(v);
    d = wrapDim(d, r);
    if (d < 0)
        return lit(1);
    if (!isDynamic(v, d))
        return lit(val(v).sizes[std::size_t(d)]);
    const auto key = std::pair<int, int>(v, int(d));
    if (const auto it = m_l.m_symSizes.find(key); it != m_l.m_symSizes.end())
        return IntElem { 0, it->second };
    const OpSchema* s = m_l.m_reg.find("aten::sym_size", "int");
    if (!s) {
        error(ErrorCode::Internal, "schema aten::sym_size.int missing from the registry");
        return lit(1);
    }
    const int sym = symValue(val(v).sizes[std::size_t(d)]);
    auto res = m_l.emitKernel(*s, { { "self", LArg::tensor(v) }, { "dim", LArg::integer(d) } }, { sym }, m_n);
    if (!res) {
        error(res.error().code, res.error().message);
        return lit(1);
    }
    m_l.m_symSizes.emplace(key, sym);
    return IntElem { 0, sym };
}

Dims OpBuilder::dims(int v)
{
    Dims d;
    for (std::size_t k = 0; k < rank(v); ++k)
        d.push_back(dim(v, std::int64_t(k)));
    return d;
}

std::int64_t OpBuilder::upper(const IntElem& e) const
{
    if (e.ref < 0)
        return e.literal;
    if (const auto it = m_l.m_symBounds.find(e.ref); it != m_l.m_symBounds.end())
        return it->second;
    const auto& name = val(e.ref).name;
    const auto it = m_l.m_ep.graph.symIntValues.find(name);
    if (it != m_l.m_ep.graph.symIntValues.end())
        if (const auto ub = symUpperBound(it->second, m_l.m_ep.rangeConstraints))
            return *ub;
    if (const auto ub = symUpperBound(SymInt { std::nullopt, name, std::nullopt }, m_l.m_ep.rangeConstraints))
        return *ub;
    return std::numeric_limits<std::int32_t>::max();
}

IntElem OpBuilder::symOp(std::string_view op, const IntElem& a, const IntElem& b, std::int64_t upperBound)
{
    if (failed())
        return lit(1);
    const OpSchema* s = m_l.m_reg.find("executorch_prim::" + std::string(op), "Scalar");
    if (!s) {
        error(ErrorCode::Internal, "schema executorch_prim::" + std::string(op) + ".Scalar missing from the registry");
        return lit(1);
    }
    auto arg = [&](const IntElem& e) {
        if (e.ref < 0)
            return LArg::integer(e.literal);
        LArg r;
        r.kind = LArg::Kind::ValueRef;
        r.ref = e.ref;
        return r;
    };
    const int sym = symValue(upperBound);
    auto res = m_l.emitKernel(*s, { { "a", arg(a) }, { "b", arg(b) } }, { sym }, m_n);
    if (!res) {
        error(res.error().code, res.error().message);
        return lit(1);
    }
    return IntElem { 0, sym };
}

IntElem OpBuilder::mulInt(const IntElem& a, const IntElem& b)
{
    if (a.ref < 0 && b.ref < 0)
        return lit(a.literal * b.literal);
    if ((a.ref < 0 && a.literal == 1))
        return b;
    if (b.ref < 0 && b.literal == 1)
        return a;
    return symOp("mul", a, b, upper(a) * upper(b));
}

IntElem OpBuilder::addInt(const IntElem& a, const IntElem& b)
{
    if (a.ref < 0 && b.ref < 0)
        return lit(a.literal + b.literal);
    if (b.ref < 0 && b.literal == 0)
        return a;
    return symOp("add", a, b, upper(a) + upper(b));
}

IntElem OpBuilder::subInt(const IntElem& a, const IntElem& b)
{
    if (a.ref < 0 && b.ref < 0)
        return lit(a.literal - b.literal);
    if (b.ref < 0 && b.literal == 0)
        return a;
    return symOp("sub", a, b, std::max<std::int64_t>(upper(a) - (b.ref < 0 ? b.literal : 0), 0));
}

IntElem OpBuilder::floorDivInt(const IntElem& a, const IntElem& b)
{
    if (a.ref < 0 && b.ref < 0 && b.literal != 0) {
        const auto q = a.literal / b.literal;
        return lit(q * b.literal > a.literal ? q - 1 : q);
    }
    return symOp("floordiv", a, b, b.ref < 0 && b.literal > 0 ? upper(a) / b.literal : upper(a));
}

LArg OpBuilder::num(double v)
{
    LArg a;
    a.kind = LArg::Kind::Double;
    a.d = v;
    return a;
}

LArg OpBuilder::sizeList(const Dims& d)
{
    LArg a;
    a.kind = LArg::Kind::IntList;
    a.ints = d;
    return a;
}

LArg OpBuilder::tensors(const std::vector<int>& refs)
{
    LArg a;
    a.kind = LArg::Kind::TensorList;
    a.refs = refs;
    return a;
}

OutSpec OpBuilder::like(int v, std::optional<ScalarType> t) const
{
    return OutSpec { t.value_or(dtype(v)), sizes(v), val(v).dynamicDims };
}

OutSpec OpBuilder::spec(ScalarType dtype, std::vector<std::int32_t> sizes, std::uint32_t dynamicDims)
{
    return OutSpec { dtype, std::move(sizes), dynamicDims };
}

int OpBuilder::newValue(const OutSpec& s)
{
    const int v = m_l.newTemp(m_n.name, s.dtype, s.sizes);
    auto& lv = m_l.m_out.values[std::size_t(v)];
    lv.dynamicDims = s.dynamicDims;
    if (s.dynamicDims != 0)
        lv.dynamism = ShapeDynamism::DynamicBound;
    return v;
}

std::vector<int> OpBuilder::call(
    std::string_view op, std::string_view overload, ArgMap args, const std::vector<OutSpec>& outs)
{
    if (failed())
        return std::vector<int>(outs.size(), -1);
    for (const auto& [name, a] : args) {
        if ((a.kind == LArg::Kind::Tensor && a.ref < 0)
            || (a.kind == LArg::Kind::TensorList
                && std::any_of(a.refs.begin(), a.refs.end(), [](int r) { return r < 0; }))) {
            error(ErrorCode::Internal, "an operand of " + std::string(op) + " is missing");
            return std::vector<int>(outs.size(), -1);
        }
    }
    const std::string q = op.find("::") == std::string_view::npos ? "aten::" + std::string(op) : std::string(op);
    const OpSchema* s = m_l.m_reg.find(q, overload);
    if (!s) {
        error(ErrorCode::Internal, "schema " + q + "." + std::string(overload) + " missing from the registry");
        return std::vector<int>(outs.size(), -1);
    }
    std::vector<int> values;
    values.reserve(outs.size());
    for (const auto& o : outs)
        values.push_back(newValue(o));
    auto res = m_l.emitKernel(*s, std::move(args), values, m_n);
    if (!res) {
        error(res.error().code, res.error().message);
        return std::vector<int>(outs.size(), -1);
    }
    return values;
}

int OpBuilder::call1(std::string_view op, std::string_view overload, ArgMap args, const OutSpec& out)
{
    return call(op, overload, std::move(args), { out })[0];
}

std::optional<OutSpec> OpBuilder::broadcast(int a, int b, ScalarType t) { return broadcast(like(a), like(b), t); }

std::optional<OutSpec> OpBuilder::broadcast(const OutSpec& x, const OutSpec& y, ScalarType t)
{
    const std::size_t n = std::max(x.sizes.size(), y.sizes.size());
    OutSpec s;
    s.dtype = t;
    s.sizes.assign(n, 1);
    for (std::size_t k = 0; k < n; ++k) {
        const bool hasX = k + x.sizes.size() >= n;
        const bool hasY = k + y.sizes.size() >= n;
        const std::size_t ix = hasX ? k + x.sizes.size() - n : 0;
        const std::size_t iy = hasY ? k + y.sizes.size() - n : 0;
        const std::int32_t sx = hasX ? x.sizes[ix] : 1;
        const std::int32_t sy = hasY ? y.sizes[iy] : 1;
        const bool dx = hasX && bit(x.dynamicDims, ix);
        const bool dy = hasY && bit(y.dynamicDims, iy);
        if (sx != sy && sx != 1 && sy != 1 && !dx && !dy) {
            error(ErrorCode::InvalidInput,
                "shapes " + showShape(x.sizes) + " and " + showShape(y.sizes) + " do not broadcast");
            return std::nullopt;
        }
        // A dynamic dimension broadcast against 1 stays dynamic; against a static size it is that size at run time.
        if (dx && dy)
            s.sizes[k] = std::max(sx, sy);
        else if (dx)
            s.sizes[k] = sy == 1 ? sx : sy;
        else if (dy)
            s.sizes[k] = sx == 1 ? sy : sx;
        else
            s.sizes[k] = sx == 1 ? sy : sx;
        if ((dx && (sy == 1 || dy)) || (dy && (sx == 1 || dx)))
            s.dynamicDims |= 1u << k;
    }
    return s;
}

int OpBuilder::binary(std::string_view op, int a, int b)
{
    if (failed() || a < 0 || b < 0)
        return error(ErrorCode::Internal, "an operand of " + std::string(op) + " is missing");
    static const std::unordered_map<std::string_view, std::string_view> kOverload = { { "add", "out" },
        { "sub", "out" }, { "mul", "out" }, { "div", "out" }, { "pow", "Tensor_Tensor_out" }, { "maximum", "out" },
        { "minimum", "out" }, { "atan2", "out" }, { "remainder", "Tensor_out" }, { "fmod", "Tensor_out" },
        { "floor_divide", "out" }, { "eq", "Tensor_out" }, { "ne", "Tensor_out" }, { "lt", "Tensor_out" },
        { "le", "Tensor_out" }, { "gt", "Tensor_out" }, { "ge", "Tensor_out" }, { "logical_and", "out" },
        { "logical_or", "out" }, { "logical_xor", "out" }, { "bitwise_and", "Tensor_out" },
        { "bitwise_or", "Tensor_out" }, { "bitwise_xor", "Tensor_out" } };
    const auto it = kOverload.find(op);
    if (it == kOverload.end())
        return error(ErrorCode::Internal, "no binary op " + std::string(op));
    ScalarType t = promoteTypes(dtype(a), rank(a) == 0, dtype(b), rank(b) == 0);
    if (op == "eq" || op == "ne" || op == "lt" || op == "le" || op == "gt" || op == "ge" || op.starts_with("logical_"))
        t = ScalarType::Bool;
    else if ((op == "div" || op == "atan2") && !isFloatingType(t))
        t = ScalarType::Float;
    const auto s = broadcast(a, b, t);
    if (!s)
        return -1;
    const OpSchema* schema = m_l.m_reg.find("aten::" + std::string(op), it->second);
    ArgMap args { { "self", LArg::tensor(a) } };
    args[schema && schema->args.size() > 1 ? std::string_view(schema->args[1].name) : std::string_view("other")] =
        LArg::tensor(b);
    return call1(op, it->second, std::move(args), *s);
}

int OpBuilder::binaryScalar(std::string_view op, int a, const LArg& other)
{
    if (failed() || a < 0)
        return error(ErrorCode::Internal, "an operand of " + std::string(op) + " is missing");
    static const std::unordered_map<std::string_view, std::string_view> kOverload = { { "add", "Scalar_out" },
        { "sub", "Scalar_out" }, { "mul", "Scalar_out" }, { "div", "Scalar_out" }, { "rsub", "Scalar_out" },
        { "pow", "Tensor_Scalar_out" }, { "remainder", "Scalar_out" }, { "fmod", "Scalar_out" }, { "eq", "Scalar_out" },
        { "ne", "Scalar_out" }, { "lt", "Scalar_out" }, { "le", "Scalar_out" }, { "gt", "Scalar_out" },
        { "ge", "Scalar_out" }, { "bitwise_and", "Scalar_out" }, { "bitwise_or", "Scalar_out" },
        { "bitwise_xor", "Scalar_out" } };
    const auto it = kOverload.find(op);
    if (it == kOverload.end()) {
        // No Scalar overload (maximum, minimum, atan2...): a 0-d constant of the tensor's dtype.
        const double v = other.kind == LArg::Kind::Double ? other.d
            : other.kind == LArg::Kind::Bool              ? other.b
                                                          : double(other.i);
        return binary(op, a, scalarConstant(v, dtype(a)));
    }
    ScalarType t = dtype(a);
    const int scalarCategory = other.kind == LArg::Kind::Double ? 2 : other.kind == LArg::Kind::Int ? 1 : 0;
    if (scalarCategory > dtypeCategory(t))
        t = scalarCategory == 2 ? ScalarType::Float : ScalarType::Long;
    if (op == "eq" || op == "ne" || op == "lt" || op == "le" || op == "gt" || op == "ge")
        t = ScalarType::Bool;
    else if (op == "div" && !isFloatingType(t))
        t = ScalarType::Float;
    const OpSchema* schema = m_l.m_reg.find("aten::" + std::string(op), it->second);
    ArgMap args { { "self", LArg::tensor(a) } };
    args[schema && schema->args.size() > 1 ? std::string_view(schema->args[1].name) : std::string_view("other")] =
        other;
    return call1(op, it->second, std::move(args), like(a, t));
}

int OpBuilder::unary(std::string_view op, int x)
{
    if (failed() || x < 0)
        return error(ErrorCode::Internal, "the operand of " + std::string(op) + " is missing");
    static const std::unordered_set<std::string_view> kFloat = { "sigmoid", "tanh", "exp", "expm1", "log", "log1p",
        "log2", "log10", "sqrt", "rsqrt", "erf", "reciprocal", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
        "cosh", "asinh", "acosh", "atanh" };
    static const std::unordered_set<std::string_view> kBool = { "logical_not", "isnan", "isinf" };
    ScalarType t = dtype(x);
    if (kFloat.count(op) && !isFloatingType(t))
        t = ScalarType::Float;
    else if (kBool.count(op))
        t = ScalarType::Bool;
    return call1(op, "out", { { "self", LArg::tensor(x) } }, like(x, t));
}

int OpBuilder::where(int condition, int a, int b)
{
    if (failed() || condition < 0 || a < 0 || b < 0)
        return error(ErrorCode::Internal, "an operand of where is missing");
    const ScalarType t = promoteTypes(dtype(a), rank(a) == 0, dtype(b), rank(b) == 0);
    auto ab = broadcast(a, b, t);
    if (!ab)
        return -1;
    // The condition broadcasts too: the shape of (condition, a, b).
    const auto s = broadcast(like(condition), *ab, t);
    if (!s)
        return -1;
    return call1("where", "self_out",
        { { "condition", LArg::tensor(condition) }, { "self", LArg::tensor(a) }, { "other", LArg::tensor(b) } }, *s);
}

int OpBuilder::whereScalar(int condition, int a, double b)
{
    if (failed())
        return -1;
    return where(condition, a, scalarConstant(b, dtype(a)));
}

int OpBuilder::whereScalar(int condition, double a, int b)
{
    if (failed())
        return -1;
    return where(condition, scalarConstant(a, dtype(b)), b);
}

int OpBuilder::clamp(int x, std::optional<double> lo, std::optional<double> hi)
{
    if (failed() || x < 0)
        return -1;
    return call1("clamp", "out",
        { { "self", LArg::tensor(x) }, { "min", lo ? num(*lo) : none() }, { "max", hi ? num(*hi) : none() } }, like(x));
}

int OpBuilder::cast(int x, ScalarType t)
{
    if (failed() || x < 0)
        return -1;
    if (dtype(x) == t)
        return x;
    return call1("dim_order_ops::_to_dim_order_copy", "out", { { "self", LArg::tensor(x) } }, like(x, t));
}

int OpBuilder::constant(const std::vector<double>& values, std::vector<std::int32_t> shape, ScalarType t)
{
    if (failed())
        return -1;
    std::size_t numel = 1;
    for (const auto s : shape)
        numel *= std::size_t(std::max(s, 0));
    if (numel != values.size())
        return error(ErrorCode::Internal,
            "constant of " + std::to_string(values.size()) + " values for shape " + showShape(shape));
    const int v = m_l.newTemp(m_n.name + "_const", t, std::move(shape));
    auto& lv = m_l.m_out.values[std::size_t(v)];
    const std::size_t es = elementSize(t);
    std::vector<std::uint8_t> bytes(numel * es);
    for (std::size_t k = 0; k < numel; ++k)
        storeElement(bytes.data() + k * es, t, values[k]);
    lv.storage = LValue::Storage::Constant;
    lv.data = Bytes::fromVector(std::move(bytes));
    return v;
}

int OpBuilder::full(const Dims& sizes, double value, ScalarType t)
{
    if (failed())
        return -1;
    OutSpec s { t, {}, 0 };
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        s.sizes.push_back(std::int32_t(upper(sizes[k])));
        if (sizes[k].ref >= 0)
            s.dynamicDims |= 1u << k;
    }
    const LArg fill = t == ScalarType::Bool ? boolean(value != 0)
        : isFloatingType(t)                 ? num(value)
                                            : integer(std::int64_t(value));
    return call1("full", "out", { { "size", sizeList(sizes) }, { "fill_value", fill } }, s);
}

int OpBuilder::fullLike(int x, double value, std::optional<ScalarType> t)
{
    if (failed() || x < 0)
        return -1;
    const ScalarType dt = t.value_or(dtype(x));
    const LArg fill = dt == ScalarType::Bool ? boolean(value != 0)
        : isFloatingType(dt)                 ? num(value)
                                             : integer(std::int64_t(value));
    return call1("full_like", "out", { { "self", LArg::tensor(x) }, { "fill_value", fill } }, like(x, dt));
}

int OpBuilder::arange(double start, double end, double step, ScalarType t)
{
    if (failed())
        return -1;
    if (step == 0)
        return error(ErrorCode::InvalidInput, "arange with step 0");
    const auto n = std::int64_t(std::max(0.0, std::ceil((end - start) / step)));
    const bool ints = !isFloatingType(t);
    auto s = [&](double v) { return ints ? integer(std::int64_t(v)) : num(v); };
    return call1("arange", "start_out", { { "start", s(start) }, { "end", s(end) }, { "step", s(step) } },
        spec(t, { std::int32_t(n) }));
}

int OpBuilder::view(int x, const Dims& sizesIn)
{
    if (failed() || x < 0)
        return -1;
    Dims sz = sizesIn;
    std::int64_t numel = 1;
    for (const auto s : sizes(x))
        numel *= s;
    OutSpec s { dtype(x), {}, 0 };
    int inferred = -1;
    std::int64_t known = 1;
    for (std::size_t k = 0; k < sz.size(); ++k) {
        if (sz[k].ref < 0 && sz[k].literal == -1) {
            if (inferred >= 0)
                return error(ErrorCode::InvalidInput, "view with two inferred (-1) sizes");
            inferred = int(k);
            s.sizes.push_back(0);
            continue;
        }
        const auto ub = upper(sz[k]);
        if (sz[k].ref >= 0)
            s.dynamicDims |= 1u << k;
        else
            known *= ub;
        s.sizes.push_back(std::int32_t(ub));
    }
    if (inferred >= 0) {
        if (isStatic(x) && s.dynamicDims == 0) {
            if (known == 0 || numel % known != 0)
                return error(ErrorCode::InvalidInput, "cannot view " + showShape(sizes(x)) + " with an inferred size");
            s.sizes[std::size_t(inferred)] = std::int32_t(numel / known);
            sz[std::size_t(inferred)] = lit(numel / known);
        } else {
            s.sizes[std::size_t(inferred)] = std::int32_t(known == 0 ? 0 : numel / known);
            s.dynamicDims |= 1u << inferred;
        }
    } else if (isStatic(x) && s.dynamicDims == 0 && known != numel) {
        return error(ErrorCode::InvalidInput,
            "cannot view " + showShape(sizes(x)) + " as " + showShape(s.sizes) + " (different element counts)");
    }
    return call1("view_copy", "out", { { "self", LArg::tensor(x) }, { "size", sizeList(sz) } }, s);
}

int OpBuilder::permute(int x, const std::vector<std::int64_t>& dimsIn)
{
    if (failed() || x < 0)
        return -1;
    const auto r = rank(x);
    if (dimsIn.size() != r)
        return error(ErrorCode::InvalidInput, "permute needs " + std::to_string(r) + " dimensions");
    std::vector<std::int64_t> d;
    OutSpec s { dtype(x), {}, 0 };
    for (std::size_t k = 0; k < r; ++k) {
        const auto w = wrapDim(dimsIn[k], r);
        if (w < 0)
            return -1;
        d.push_back(w);
        s.sizes.push_back(val(x).sizes[std::size_t(w)]);
        if (bit(val(x).dynamicDims, std::size_t(w)))
            s.dynamicDims |= 1u << k;
    }
    bool identity = true;
    for (std::size_t k = 0; k < r; ++k)
        identity = identity && d[k] == std::int64_t(k);
    if (identity)
        return x;
    return call1("permute_copy", "out", { { "self", LArg::tensor(x) }, { "dims", ints(d) } }, s);
}

int OpBuilder::transpose(int x, std::int64_t d0, std::int64_t d1)
{
    if (failed() || x < 0)
        return -1;
    const auto r = rank(x);
    std::vector<std::int64_t> perm(r);
    std::iota(perm.begin(), perm.end(), 0);
    if (r == 0)
        return x;
    d0 = wrapDim(d0, r);
    d1 = wrapDim(d1, r);
    if (d0 < 0 || d1 < 0)
        return -1;
    std::swap(perm[std::size_t(d0)], perm[std::size_t(d1)]);
    return permute(x, perm);
}

int OpBuilder::unsqueeze(int x, std::int64_t d)
{
    if (failed() || x < 0)
        return -1;
    const auto r = rank(x);
    d = wrapDim(d, r + 1);
    if (d < 0)
        return -1;
    OutSpec s = like(x);
    s.sizes.insert(s.sizes.begin() + d, 1);
    const std::uint32_t low = s.dynamicDims & ((1u << d) - 1u);
    s.dynamicDims = low | ((s.dynamicDims & ~((1u << d) - 1u)) << 1);
    return call1("unsqueeze_copy", "out", { { "self", LArg::tensor(x) }, { "dim", integer(d) } }, s);
}

int OpBuilder::squeeze(int x, const std::vector<std::int64_t>& dimsIn)
{
    if (failed() || x < 0)
        return -1;
    const auto r = rank(x);
    std::vector<bool> drop(r, false);
    std::vector<std::int64_t> d;
    for (const auto k : dimsIn) {
        const auto w = wrapDim(k, r);
        if (w < 0)
            return -1;
        if (r > 0 && val(x).sizes[std::size_t(w)] == 1 && !isDynamic(x, w))
            drop[std::size_t(w)] = true;
        d.push_back(w);
    }
    OutSpec s { dtype(x), {}, 0 };
    for (std::size_t k = 0; k < r; ++k) {
        if (drop[k])
            continue;
        if (isDynamic(x, std::int64_t(k)))
            s.dynamicDims |= 1u << s.sizes.size();
        s.sizes.push_back(val(x).sizes[k]);
    }
    if (s.sizes.size() == r)
        return x;
    return call1("squeeze_copy", "dims_out", { { "self", LArg::tensor(x) }, { "dim", ints(d) } }, s);
}

int OpBuilder::expand(int x, const Dims& sizesIn)
{
    if (failed() || x < 0)
        return -1;
    const auto r = rank(x);
    if (sizesIn.size() < r)
        return error(ErrorCode::InvalidInput, "expand to fewer dimensions than the tensor has");
    Dims sz = sizesIn;
    OutSpec s { dtype(x), {}, 0 };
    bool same = sz.size() == r;
    const std::size_t lead = sz.size() - r;
    for (std::size_t k = 0; k < sz.size(); ++k) {
        const bool own = k >= lead;
        if (sz[k].ref < 0 && sz[k].literal == -1) {
            if (!own)
                return error(ErrorCode::InvalidInput, "expand: -1 for a new leading dimension");
            sz[k] = dim(x, std::int64_t(k - lead));
        }
        const auto ub = upper(sz[k]);
        if (own && val(x).sizes[k - lead] != 1 && val(x).sizes[k - lead] != ub && sz[k].ref < 0
            && !isDynamic(x, std::int64_t(k - lead)))
            return error(ErrorCode::InvalidInput,
                "cannot expand " + showShape(sizes(x)) + " to size " + std::to_string(ub) + " in dimension "
                    + std::to_string(k));
        if (sz[k].ref >= 0)
            s.dynamicDims |= 1u << k;
        same = same && own && sz[k].ref < 0 && ub == val(x).sizes[k - lead] && !isDynamic(x, std::int64_t(k - lead));
        s.sizes.push_back(std::int32_t(ub));
    }
    if (same)
        return x;
    return call1("expand_copy", "out", { { "self", LArg::tensor(x) }, { "size", sizeList(sz) } }, s);
}

int OpBuilder::slice(int x, std::int64_t d, const IntElem& startIn, const IntElem& endIn, std::int64_t step)
{
    if (failed() || x < 0)
        return -1;
    const auto r = rank(x);
    d = wrapDim(d, r);
    if (d < 0)
        return -1;
    if (step <= 0)
        return error(ErrorCode::InvalidInput, "slice step must be positive");
    OutSpec s = like(x);
    const std::int64_t len = val(x).sizes[std::size_t(d)];
    IntElem start = startIn;
    IntElem end = endIn;
    if (start.ref < 0 && end.ref < 0 && !isDynamic(x, d)) {
        auto clampIndex = [&](std::int64_t v) {
            if (v < 0)
                v += len;
            return std::clamp<std::int64_t>(v, 0, len);
        };
        const auto a = clampIndex(start.literal);
        const auto b = std::max(a, clampIndex(end.literal));
        s.sizes[std::size_t(d)] = std::int32_t((b - a + step - 1) / step);
        start = lit(a);
        end = lit(b);
    } else {
        s.dynamicDims |= 1u << d;
        std::int64_t ub = len;
        if (end.ref < 0 && end.literal >= 0)
            ub = std::min(ub, end.literal);
        if (end.ref >= 0)
            ub = std::min(ub, upper(end));
        if (start.ref < 0 && start.literal > 0)
            ub -= std::min(ub, start.literal);
        s.sizes[std::size_t(d)] = std::int32_t((ub + step - 1) / step);
    }
    return call1("slice_copy", "Tensor_out",
        { { "self", LArg::tensor(x) }, { "dim", integer(d) }, { "start", sizeArg(start) }, { "end", sizeArg(end) },
            { "step", integer(step) } },
        s);
}

int OpBuilder::select(int x, std::int64_t d, const IntElem& index)
{
    if (failed() || x < 0)
        return -1;
    const auto r = rank(x);
    d = wrapDim(d, r);
    if (d < 0 || r == 0)
        return error(ErrorCode::InvalidInput, "select on a 0-d tensor");
    OutSpec s { dtype(x), {}, 0 };
    for (std::size_t k = 0; k < r; ++k) {
        if (std::int64_t(k) == d)
            continue;
        if (isDynamic(x, std::int64_t(k)))
            s.dynamicDims |= 1u << s.sizes.size();
        s.sizes.push_back(val(x).sizes[k]);
    }
    return call1("select_copy", "int_out",
        { { "self", LArg::tensor(x) }, { "dim", integer(d) }, { "index", sizeArg(index) } }, s);
}

std::vector<int> OpBuilder::split(int x, const std::vector<std::int64_t>& pieces, std::int64_t d)
{
    if (failed() || x < 0)
        return std::vector<int>(pieces.size(), -1);
    const auto r = rank(x);
    d = wrapDim(d, r);
    if (d < 0)
        return std::vector<int>(pieces.size(), -1);
    if (isDynamic(x, d)) {
        error(ErrorCode::Unsupported, "split along a dynamic dimension");
        return std::vector<int>(pieces.size(), -1);
    }
    const auto total = std::accumulate(pieces.begin(), pieces.end(), std::int64_t(0));
    if (total != val(x).sizes[std::size_t(d)]) {
        error(ErrorCode::InvalidInput,
            "split sizes add up to " + std::to_string(total) + ", not " + std::to_string(val(x).sizes[std::size_t(d)]));
        return std::vector<int>(pieces.size(), -1);
    }
    std::vector<OutSpec> outs;
    for (const auto p : pieces) {
        OutSpec s = like(x);
        s.sizes[std::size_t(d)] = std::int32_t(p);
        outs.push_back(s);
    }
    if (pieces.size() == 1)
        return { x };
    return call("split_with_sizes_copy", "out",
        { { "self", LArg::tensor(x) }, { "split_sizes", ints(pieces) }, { "dim", integer(d) } }, outs);
}

int OpBuilder::cat(const std::vector<int>& xs, std::int64_t d)
{
    if (failed() || xs.empty())
        return error(ErrorCode::Internal, "cat of nothing");
    if (xs.size() == 1)
        return xs[0];
    const auto r = rank(xs[0]);
    d = wrapDim(d, r);
    if (d < 0)
        return -1;
    OutSpec s = like(xs[0]);
    s.sizes[std::size_t(d)] = 0;
    ScalarType t = dtype(xs[0]);
    for (const int x : xs) {
        if (x < 0)
            return error(ErrorCode::Internal, "an operand of cat is missing");
        if (rank(x) != r)
            return error(ErrorCode::InvalidInput, "cat of tensors of different ranks");
        s.sizes[std::size_t(d)] += val(x).sizes[std::size_t(d)];
        s.dynamicDims |= val(x).dynamicDims;
        t = promotePair(t, dtype(x));
    }
    s.dtype = t;
    return call1("cat", "out", { { "tensors", tensors(xs) }, { "dim", integer(d) } }, s);
}

int OpBuilder::stack(const std::vector<int>& xs, std::int64_t d)
{
    if (failed() || xs.empty())
        return error(ErrorCode::Internal, "stack of nothing");
    const auto r = rank(xs[0]);
    d = wrapDim(d, r + 1);
    if (d < 0)
        return -1;
    OutSpec s = like(xs[0]);
    s.sizes.insert(s.sizes.begin() + d, std::int32_t(xs.size()));
    const std::uint32_t low = s.dynamicDims & ((1u << d) - 1u);
    s.dynamicDims = low | ((s.dynamicDims & ~((1u << d) - 1u)) << 1);
    return call1("stack", "out", { { "tensors", tensors(xs) }, { "dim", integer(d) } }, s);
}

int OpBuilder::flip(int x, const std::vector<std::int64_t>& dimsIn)
{
    if (failed() || x < 0)
        return -1;
    std::vector<std::int64_t> d;
    for (const auto k : dimsIn)
        d.push_back(wrapDim(k, rank(x)));
    return call1("flip", "out", { { "self", LArg::tensor(x) }, { "dims", ints(d) } }, like(x));
}

int OpBuilder::clone(int x)
{
    if (failed() || x < 0)
        return -1;
    std::vector<std::int64_t> order(rank(x));
    std::iota(order.begin(), order.end(), 0);
    return call1("dim_order_ops::_clone_dim_order", "out",
        { { "self", LArg::tensor(x) }, { "dim_order", ints(order) } }, like(x));
}

int OpBuilder::repeat(int x, const std::vector<std::int64_t>& repeats)
{
    if (failed() || x < 0)
        return -1;
    if (repeats.size() < rank(x))
        return error(ErrorCode::InvalidInput, "repeat needs at least as many repeats as dimensions");
    OutSpec s { dtype(x), {}, 0 };
    const std::size_t lead = repeats.size() - rank(x);
    for (std::size_t k = 0; k < repeats.size(); ++k) {
        const std::int64_t base = k >= lead ? val(x).sizes[k - lead] : 1;
        if (k >= lead && isDynamic(x, std::int64_t(k - lead)))
            s.dynamicDims |= 1u << k;
        s.sizes.push_back(std::int32_t(base * repeats[k]));
    }
    return call1("repeat", "out", { { "self", LArg::tensor(x) }, { "repeats", ints(repeats) } }, s);
}

int OpBuilder::indexSelect(int x, std::int64_t d, int index)
{
    if (failed() || x < 0 || index < 0)
        return -1;
    d = wrapDim(d, rank(x));
    if (d < 0)
        return -1;
    OutSpec s = like(x);
    if (!s.sizes.empty()) {
        s.sizes[std::size_t(d)] = rank(index) == 0 ? 1 : val(index).sizes[0];
        if (isDynamic(index, 0))
            s.dynamicDims |= 1u << d;
        else
            s.dynamicDims &= ~(1u << d);
    }
    return call1("index_select", "out",
        { { "self", LArg::tensor(x) }, { "dim", integer(d) }, { "index", LArg::tensor(index) } }, s);
}

int OpBuilder::index(int x, const std::vector<int>& indices)
{
    if (failed() || x < 0)
        return -1;
    // Advanced indexing with integer index tensors that are all adjacent (the form decompositions use): the
    // broadcast shape of the indices replaces the indexed dimensions.
    std::vector<int> given;
    std::size_t first = indices.size();
    std::size_t last = 0;
    for (std::size_t k = 0; k < indices.size(); ++k) {
        if (indices[k] < 0)
            continue;
        if (dtype(indices[k]) == ScalarType::Bool)
            return error(ErrorCode::Unsupported, "boolean mask indices in a decomposition");
        given.push_back(indices[k]);
        first = std::min(first, k);
        last = k;
    }
    if (given.empty())
        return x;
    for (std::size_t k = first; k <= last; ++k)
        if (indices[k] < 0)
            return error(ErrorCode::Unsupported, "non-adjacent index tensors in a decomposition");
    std::optional<OutSpec> b = like(given[0]);
    for (std::size_t k = 1; k < given.size() && b; ++k)
        b = broadcast(*b, like(given[k]), ScalarType::Long);
    if (!b)
        return -1;
    OutSpec s { dtype(x), {}, 0 };
    for (std::size_t k = 0; k < rank(x); ++k) {
        if (k == first) {
            for (std::size_t j = 0; j < b->sizes.size(); ++j) {
                if (bit(b->dynamicDims, j))
                    s.dynamicDims |= 1u << s.sizes.size();
                s.sizes.push_back(b->sizes[j]);
            }
        }
        if (k >= first && k <= last)
            continue;
        if (isDynamic(x, std::int64_t(k)))
            s.dynamicDims |= 1u << s.sizes.size();
        s.sizes.push_back(val(x).sizes[k]);
    }
    LArg list;
    list.kind = LArg::Kind::OptionalTensorList;
    list.refs.assign(indices.begin(), indices.begin() + std::ptrdiff_t(last + 1));
    return call1("index", "Tensor_out", { { "self", LArg::tensor(x) }, { "indices", std::move(list) } }, s);
}

int OpBuilder::constantPad(int x, const std::vector<std::int64_t>& pad, double value)
{
    if (failed() || x < 0)
        return -1;
    const auto r = rank(x);
    if (pad.size() % 2 != 0 || pad.size() / 2 > r)
        return error(ErrorCode::InvalidInput, "padding of " + std::to_string(pad.size()) + " values");
    OutSpec s = like(x);
    for (std::size_t k = 0; k < pad.size() / 2; ++k) {
        auto& sz = s.sizes[r - 1 - k];
        const auto n = std::int64_t(sz) + pad[2 * k] + pad[2 * k + 1];
        if (n < 0)
            return error(ErrorCode::InvalidInput, "negative padding larger than the dimension");
        sz = std::int32_t(n);
    }
    return call1(
        "constant_pad_nd", "out", { { "self", LArg::tensor(x) }, { "pad", ints(pad) }, { "value", num(value) } }, s);
}

LArg OpBuilder::sizeArg(const IntElem& e)
{
    if (e.ref < 0)
        return LArg::integer(e.literal);
    LArg a;
    a.kind = LArg::Kind::ValueRef;
    a.ref = e.ref;
    return a;
}

int OpBuilder::sliceScatter(
    int base, int src, std::int64_t d, const IntElem& start, const IntElem& end, std::int64_t step)
{
    if (failed() || base < 0 || src < 0)
        return -1;
    d = wrapDim(d, rank(base));
    if (d < 0)
        return -1;
    return call1("slice_scatter", "out",
        { { "self", LArg::tensor(base) }, { "src", LArg::tensor(src) }, { "dim", integer(d) },
            { "start", sizeArg(start) }, { "end", sizeArg(end) }, { "step", integer(step) } },
        like(base));
}

int OpBuilder::selectScatter(int base, int src, std::int64_t d, const IntElem& index)
{
    if (failed() || base < 0 || src < 0)
        return -1;
    d = wrapDim(d, rank(base));
    if (d < 0)
        return -1;
    return call1("select_scatter", "out",
        { { "self", LArg::tensor(base) }, { "src", LArg::tensor(src) }, { "dim", integer(d) },
            { "index", sizeArg(index) } },
        like(base));
}

int OpBuilder::mm(int a, int b)
{
    if (failed() || a < 0 || b < 0)
        return -1;
    if (rank(a) != 2 || rank(b) != 2)
        return error(ErrorCode::InvalidInput, "mm needs two matrices");
    OutSpec s { promotePair(dtype(a), dtype(b)), { size(a, 0), size(b, 1) }, 0 };
    if (isDynamic(a, 0))
        s.dynamicDims |= 1u;
    if (isDynamic(b, 1))
        s.dynamicDims |= 2u;
    return call1("mm", "out", { { "self", LArg::tensor(a) }, { "mat2", LArg::tensor(b) } }, s);
}

int OpBuilder::bmm(int a, int b)
{
    if (failed() || a < 0 || b < 0)
        return -1;
    if (rank(a) != 3 || rank(b) != 3)
        return error(ErrorCode::InvalidInput, "bmm needs two 3-D tensors");
    OutSpec s { promotePair(dtype(a), dtype(b)), { std::max(size(a, 0), size(b, 0)), size(a, 1), size(b, 2) }, 0 };
    if (isDynamic(a, 0) || isDynamic(b, 0))
        s.dynamicDims |= 1u;
    if (isDynamic(a, 1))
        s.dynamicDims |= 2u;
    if (isDynamic(b, 2))
        s.dynamicDims |= 4u;
    return call1("bmm", "out", { { "self", LArg::tensor(a) }, { "mat2", LArg::tensor(b) } }, s);
}

int OpBuilder::addmm(int bias, int a, int b, double beta, double alpha)
{
    if (failed() || bias < 0 || a < 0 || b < 0)
        return -1;
    if (rank(a) != 2 || rank(b) != 2)
        return error(ErrorCode::InvalidInput, "addmm needs two matrices");
    OutSpec s { promotePair(dtype(a), dtype(b)), { size(a, 0), size(b, 1) }, 0 };
    if (isDynamic(a, 0))
        s.dynamicDims |= 1u;
    if (isDynamic(b, 1))
        s.dynamicDims |= 2u;
    ArgMap args { { "self", LArg::tensor(bias) }, { "mat1", LArg::tensor(a) }, { "mat2", LArg::tensor(b) } };
    if (beta != 1.0)
        args["beta"] = num(beta);
    if (alpha != 1.0)
        args["alpha"] = num(alpha);
    return call1("addmm", "out", std::move(args), s);
}

int OpBuilder::matmul(int a, int b)
{
    if (failed() || a < 0 || b < 0)
        return -1;
    const auto ra = rank(a);
    const auto rb = rank(b);
    if (ra == 0 || rb == 0)
        return error(ErrorCode::InvalidInput, "both arguments to matmul need to be at least 1D");
    if (ra == 2 && rb == 2)
        return mm(a, b);
    if (ra == 1 && rb == 1) // dot: the sum of the products
        return sum(mul(a, b), { 0 }, false);
    if (rb <= 2) {
        // a's leading dimensions fold into rows (a 1-D a is one row), a 1-D b is a column: one mm.
        const IntElem k = dim(a, -1);
        IntElem rows = lit(1);
        Dims lead;
        for (std::size_t d = 0; d + 1 < ra; ++d) {
            lead.push_back(dim(a, std::int64_t(d)));
            rows = mulInt(rows, lead.back());
        }
        const int a2 = ra == 2 ? a : view(a, Dims { rows, k });
        const int b2 = rb == 1 ? view(b, Dims { k, lit(1) }) : b;
        const int o = mm(a2, b2);
        Dims out = lead;
        if (rb == 2)
            out.push_back(dim(b, 1));
        if (out.size() == 2 && ra == 2)
            return o;
        return view(o, out);
    }
    // Batched: the batch dimensions broadcast (expand_copy), fold into one (view_copy), one bmm, and the result is
    // viewed to the output's shape. A 1-D a is a single row; a 1-D... b of rank >= 3 here.
    int am = ra == 1 ? unsqueeze(a, 0) : a;
    const auto rankA = rank(am);
    Dims aBatch;
    Dims bBatch;
    for (std::size_t d = 0; d + 2 < rankA; ++d)
        aBatch.push_back(dim(am, std::int64_t(d)));
    for (std::size_t d = 0; d + 2 < rb; ++d)
        bBatch.push_back(dim(b, std::int64_t(d)));
    const std::size_t nb = std::max(aBatch.size(), bBatch.size());
    Dims batch(nb, lit(1));
    for (std::size_t k = 0; k < nb; ++k) {
        const bool ha = k + aBatch.size() >= nb;
        const bool hb = k + bBatch.size() >= nb;
        const IntElem x = ha ? aBatch[k + aBatch.size() - nb] : lit(1);
        const IntElem y = hb ? bBatch[k + bBatch.size() - nb] : lit(1);
        if (x.ref < 0 && x.literal == 1)
            batch[k] = y;
        else if (y.ref < 0 && y.literal == 1)
            batch[k] = x;
        else if (x.ref < 0 && y.ref < 0 && x.literal != y.literal)
            return error(ErrorCode::InvalidInput, "matmul batch dimensions do not broadcast");
        else
            batch[k] = x.ref >= 0 ? x : y;
    }
    IntElem batchSize = lit(1);
    for (const auto& e : batch)
        batchSize = mulInt(batchSize, e);
    auto folded = [&](int v, const Dims& vBatch) {
        Dims full = batch;
        full.push_back(dim(v, -2));
        full.push_back(dim(v, -1));
        int cur = v;
        bool needExpand = vBatch.size() != batch.size();
        for (std::size_t k = 0; !needExpand && k < batch.size(); ++k)
            needExpand = vBatch[k].ref != batch[k].ref || vBatch[k].literal != batch[k].literal;
        if (needExpand)
            cur = expand(cur, full);
        if (full.size() != 3)
            cur = view(cur, Dims { batchSize, full[full.size() - 2], full.back() });
        return cur;
    };
    const int a3 = folded(am, aBatch);
    const int b3 = folded(b, bBatch);
    const int o3 = bmm(a3, b3);
    Dims out = batch;
    if (ra != 1)
        out.push_back(dim(am, -2));
    out.push_back(dim(b, -1));
    if (out.size() == 3 && ra != 1)
        return o3;
    return view(o3, out);
}

int OpBuilder::linear(int x, int w, int bias)
{
    if (failed() || x < 0 || w < 0)
        return -1;
    if (rank(w) != 2)
        return error(ErrorCode::InvalidInput, "linear needs a 2-D weight");
    const int wt = permute(w, { 1, 0 });
    const auto r = rank(x);
    if (r == 2)
        return bias >= 0 ? addmm(bias, x, wt) : mm(x, wt);
    if (r == 0)
        return error(ErrorCode::InvalidInput, "linear of a 0-d input");
    Dims lead;
    IntElem rows = lit(1);
    for (std::size_t d = 0; d + 1 < r; ++d) {
        lead.push_back(dim(x, std::int64_t(d)));
        rows = mulInt(rows, lead.back());
    }
    const int x2 = view(x, Dims { rows, dim(x, -1) });
    const int y2 = bias >= 0 ? addmm(bias, x2, wt) : mm(x2, wt);
    lead.push_back(dim(w, 0));
    return view(y2, lead);
}

OutSpec OpBuilder::reduced(int x, const std::vector<std::int64_t>& dimsIn, bool keepdim, ScalarType t)
{
    const auto r = rank(x);
    std::vector<bool> red(r, dimsIn.empty());
    for (const auto k : dimsIn) {
        const auto w = wrapDim(k, r);
        if (w >= 0 && r > 0)
            red[std::size_t(w)] = true;
    }
    OutSpec s { t, {}, 0 };
    for (std::size_t k = 0; k < r; ++k) {
        if (red[k] && !keepdim)
            continue;
        if (!red[k] && isDynamic(x, std::int64_t(k)))
            s.dynamicDims |= 1u << s.sizes.size();
        s.sizes.push_back(red[k] ? 1 : val(x).sizes[k]);
    }
    return s;
}

int OpBuilder::reduce(std::string_view op, std::string_view overload, int x, const std::vector<std::int64_t>& dimsIn,
    bool keepdim, ScalarType t, ArgMap extra)
{
    if (failed() || x < 0)
        return -1;
    std::vector<std::int64_t> d;
    for (const auto k : dimsIn)
        d.push_back(wrapDim(k, rank(x)));
    const OutSpec s = reduced(x, d, keepdim, t);
    ArgMap args { { "self", LArg::tensor(x) }, { "dim", dimsIn.empty() ? none() : ints(d) },
        { "keepdim", boolean(keepdim) } };
    for (auto& [k, v] : extra)
        args[k] = std::move(v);
    return call1(op, overload, std::move(args), s);
}

int OpBuilder::sum(int x, const std::vector<std::int64_t>& d, bool keepdim, std::optional<ScalarType> t)
{
    if (failed() || x < 0)
        return -1;
    const ScalarType dt = t.value_or(isFloatingType(dtype(x)) ? dtype(x) : ScalarType::Long);
    ArgMap extra;
    if (t)
        extra["dtype"] = integer(std::int64_t(*t));
    return reduce("sum", "IntList_out", x, d, keepdim, dt, std::move(extra));
}

int OpBuilder::mean(int x, const std::vector<std::int64_t>& d, bool keepdim)
{
    return reduce("mean", "out", x, d, keepdim, x >= 0 ? dtype(x) : ScalarType::Float);
}

int OpBuilder::amax(int x, const std::vector<std::int64_t>& d, bool keepdim)
{
    if (failed() || x < 0)
        return -1;
    std::vector<std::int64_t> w;
    for (const auto k : d)
        w.push_back(wrapDim(k, rank(x)));
    return call1("amax", "out", { { "self", LArg::tensor(x) }, { "dim", ints(w) }, { "keepdim", boolean(keepdim) } },
        reduced(x, w, keepdim, dtype(x)));
}

int OpBuilder::amin(int x, const std::vector<std::int64_t>& d, bool keepdim)
{
    if (failed() || x < 0)
        return -1;
    std::vector<std::int64_t> w;
    for (const auto k : d)
        w.push_back(wrapDim(k, rank(x)));
    return call1("amin", "out", { { "self", LArg::tensor(x) }, { "dim", ints(w) }, { "keepdim", boolean(keepdim) } },
        reduced(x, w, keepdim, dtype(x)));
}

int OpBuilder::var(int x, const std::vector<std::int64_t>& d, double correction, bool keepdim)
{
    ArgMap extra;
    extra["correction"] = num(correction);
    return reduce("var", "correction_out", x, d, keepdim, x >= 0 ? dtype(x) : ScalarType::Float, std::move(extra));
}

int OpBuilder::any(int x, const std::vector<std::int64_t>& d, bool keepdim)
{
    return reduce("any", "dims_out", x, d, keepdim, ScalarType::Bool);
}

int OpBuilder::softmax(int x, std::int64_t d)
{
    if (failed() || x < 0)
        return -1;
    d = wrapDim(d, rank(x));
    return call1("_softmax", "out",
        { { "self", LArg::tensor(x) }, { "dim", integer(d) }, { "half_to_float", boolean(false) } }, like(x));
}

int OpBuilder::logSoftmax(int x, std::int64_t d)
{
    if (failed() || x < 0)
        return -1;
    d = wrapDim(d, rank(x));
    return call1("_log_softmax", "out",
        { { "self", LArg::tensor(x) }, { "dim", integer(d) }, { "half_to_float", boolean(false) } }, like(x));
}

int OpBuilder::cumsum(int x, std::int64_t d)
{
    if (failed() || x < 0)
        return -1;
    d = wrapDim(d, rank(x));
    return call1("cumsum", "out", { { "self", LArg::tensor(x) }, { "dim", integer(d) } },
        like(x, isFloatingType(dtype(x)) ? dtype(x) : ScalarType::Long));
}

// ---- shape, masks and factories, reductions and math

std::optional<OutSpec> OpBuilder::nodeOutput(std::size_t k) const
{
    std::size_t i = 0;
    for (const auto& o : m_n.outputs) {
        if (o.kind != ArgKind::Tensor && o.kind != ArgKind::Tensors && o.kind != ArgKind::OptionalTensors)
            continue;
        for (const auto& name : o.names) {
            if (i++ != k)
                continue;
            const TensorMeta* meta = name.empty() ? nullptr : m_l.findMeta(name);
            if (!meta)
                return std::nullopt;
            OutSpec s { meta->dtype, {}, 0 };
            for (std::size_t d = 0; d < meta->sizes.size(); ++d) {
                const auto& sz = meta->sizes[d];
                if (sz.isConcrete()) {
                    s.sizes.push_back(std::int32_t(*sz.value));
                    continue;
                }
                const auto ub = symUpperBound(sz, m_l.m_ep.rangeConstraints);
                s.sizes.push_back(std::int32_t(ub ? *ub : 0));
                if (d < 32)
                    s.dynamicDims |= 1u << d;
            }
            return s;
        }
    }
    return std::nullopt;
}

int OpBuilder::arangeTo(const IntElem& end, ScalarType t)
{
    if (failed())
        return -1;
    if (end.ref < 0)
        return arange(0, double(end.literal), 1, t);
    return call1("arange", "out", { { "end", sizeArg(end) } }, spec(t, { std::int32_t(upper(end)) }, 1u));
}

LArg OpBuilder::str(const std::string& s)
{
    LArg a;
    a.kind = LArg::Kind::String;
    a.rare.emplace().s = s;
    return a;
}

ScalarType OpBuilder::scalarResult(int x, const LArg& scalar) const
{
    const ScalarType t = dtype(x);
    const int category = scalar.kind == LArg::Kind::Double ? 2 : scalar.kind == LArg::Kind::Int ? 1 : 0;
    if (category > dtypeCategory(t))
        return category == 2 ? ScalarType::Float : ScalarType::Long;
    return t;
}

int OpBuilder::all(int x, const std::vector<std::int64_t>& d, bool keepdim)
{
    if (failed() || x < 0)
        return -1;
    return unary("logical_not", any(unary("logical_not", x), d, keepdim));
}

// ---- recurrent family

std::vector<int> OpBuilder::unbind(int x, std::int64_t d)
{
    if (failed() || x < 0)
        return {};
    const auto r = rank(x);
    d = wrapDim(d, r);
    if (d < 0 || r == 0) {
        error(ErrorCode::InvalidInput, "unbind of a 0-d tensor");
        return {};
    }
    if (isDynamic(x, d)) {
        error(ErrorCode::Unsupported, "unbind along a dynamic dimension");
        return {};
    }
    OutSpec s { dtype(x), {}, 0 };
    for (std::size_t k = 0; k < r; ++k) {
        if (std::int64_t(k) == d)
            continue;
        if (isDynamic(x, std::int64_t(k)))
            s.dynamicDims |= 1u << s.sizes.size();
        s.sizes.push_back(val(x).sizes[k]);
    }
    const std::vector<OutSpec> outs(std::size_t(val(x).sizes[std::size_t(d)]), s);
    if (outs.empty())
        return {};
    return call("unbind_copy", "int_out", { { "self", LArg::tensor(x) }, { "dim", integer(d) } }, outs);
}

// ---- attention family (attentiondecompositions.cpp)

int OpBuilder::tril(int x, std::int64_t diagonal)
{
    if (failed() || x < 0)
        return -1;
    if (rank(x) < 2)
        return error(ErrorCode::InvalidInput, "tril needs a tensor of at least 2 dimensions");
    return call1("tril", "out", { { "self", LArg::tensor(x) }, { "diagonal", integer(diagonal) } }, like(x));
}

int OpBuilder::diagonal(int x, std::int64_t offset, std::int64_t dim1, std::int64_t dim2)
{
    if (failed() || x < 0)
        return -1;
    const auto r = rank(x);
    dim1 = wrapDim(dim1, r);
    dim2 = wrapDim(dim2, r);
    if (dim1 < 0 || dim2 < 0)
        return -1;
    if (dim1 == dim2)
        return error(ErrorCode::InvalidInput, "diagonal dimensions cannot be identical");
    // torch's meta: the two dimensions go, their diagonal (shortened by the offset) is appended.
    const std::int64_t s1 = val(x).sizes[std::size_t(dim1)];
    const std::int64_t s2 = val(x).sizes[std::size_t(dim2)];
    const std::int64_t n =
        std::max<std::int64_t>(offset >= 0 ? std::min(s1, s2 - offset) : std::min(s1 + offset, s2), 0);
    OutSpec s { dtype(x), {}, 0 };
    for (std::size_t k = 0; k < r; ++k) {
        if (std::int64_t(k) == dim1 || std::int64_t(k) == dim2)
            continue;
        if (isDynamic(x, std::int64_t(k)))
            s.dynamicDims |= 1u << s.sizes.size();
        s.sizes.push_back(val(x).sizes[k]);
    }
    if (isDynamic(x, dim1) || isDynamic(x, dim2))
        s.dynamicDims |= 1u << s.sizes.size();
    s.sizes.push_back(std::int32_t(n));
    return call1("diagonal_copy", "out",
        { { "self", LArg::tensor(x) }, { "offset", integer(offset) }, { "dim1", integer(dim1) },
            { "dim2", integer(dim2) } },
        s);
}

} // namespace pte::emitcore
