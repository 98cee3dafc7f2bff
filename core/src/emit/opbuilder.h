// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "emit/argmap.h"
#include "emit/lowering.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/**
 * @file
 * OpBuilder: emits the core ATen kernels a decomposition is made of, each with its output's dtype and shape derived
 * as the op's PyTorch meta function derives them (broadcasting, type promotion, reductions, views), so that a
 * decomposition reads as the formula it implements: `b.mul(x, b.unary("sigmoid", x))`.
 *
 * Errors are sticky: after the first failure every op returns -1 without emitting anything, and status() reports the
 * first error. Shapes are upper bounds; a dimension that is dynamic (a symbol of the dump, or derived from one) is
 * marked in LValue::dynamicDims, and dim() gives it as a runtime size (aten::sym_size.int), so views of dynamic
 * tensors take their sizes at run time as ExecuTorch's do. Every kernel is attributed to the node being decomposed
 * (its debug handle), as ExecuTorch's decompositions keep the node's provenance. docs/lowering.md describes the
 * whole lowering.
 */

namespace pte::emitcore {

class Lowering;

/** A size: a literal or a symbolic value (IntElem), as view and expand take them. */
using Dims = std::vector<IntElem>;

/** The dtype and sizes of an out tensor a generic call() allocates. */
struct OutSpec
{
    ScalarType dtype = ScalarType::Float;
    std::vector<std::int32_t> sizes; ///< upper bounds
    std::uint32_t dynamicDims = 0; ///< bit d: dimension d is dynamic
};

class OpBuilder
{
public:
    OpBuilder(Lowering& lowering, const Node& node);

    // ---- errors
    [[nodiscard]] bool failed() const noexcept { return m_error.has_value(); }
    [[nodiscard]] Result<void> status() const;
    /** Records an error about the node (the first one wins) and returns -1. */
    int error(ErrorCode code, const std::string& what);

    // ---- values
    [[nodiscard]] const LValue& val(int v) const;
    [[nodiscard]] std::size_t rank(int v) const;
    [[nodiscard]] ScalarType dtype(int v) const;
    /** Upper bound of dimension d (negative d counts from the end). */
    [[nodiscard]] std::int32_t size(int v, std::int64_t d) const;
    [[nodiscard]] std::vector<std::int32_t> sizes(int v) const;
    [[nodiscard]] bool isDynamic(int v, std::int64_t d) const;
    [[nodiscard]] bool isStatic(int v) const;
    /** d normalised against rank r (negative counts from the end); -1 with an error when out of range. */
    std::int64_t wrapDim(std::int64_t d, std::size_t r);
    /** Dimension d as a size argument: its literal value, or a runtime size (one aten::sym_size.int per value and
     *  dimension). */
    IntElem dim(int v, std::int64_t d);
    /** Every dimension of v as size arguments. */
    Dims dims(int v);
    [[nodiscard]] std::int64_t upper(const IntElem& e) const;
    /** a * b, a + b, a - b and a // b of sizes: literal when both are, else an executorch_prim scalar op. */
    IntElem mulInt(const IntElem& a, const IntElem& b);
    IntElem addInt(const IntElem& a, const IntElem& b);
    IntElem subInt(const IntElem& a, const IntElem& b);
    IntElem floorDivInt(const IntElem& a, const IntElem& b);
    static IntElem lit(std::int64_t v) { return IntElem { v, -1 }; }
    static Dims lits(const std::vector<std::int64_t>& v);

    // ---- scalar arguments
    static LArg num(double v);
    static LArg integer(std::int64_t v) { return LArg::integer(v); }
    static LArg boolean(bool v) { return LArg::boolean(v); }
    static LArg none() { return LArg {}; }
    static LArg ints(const std::vector<std::int64_t>& v) { return LArg::intList(v); }
    static LArg sizeList(const Dims& d);
    static LArg tensors(const std::vector<int>& refs);

    // ---- generic kernel calls
    /** Calls the out variant `op`.`overload` with `args` (by schema name; the rest take their defaults), its out
     *  arguments allocated from `outs`. @returns the out values */
    std::vector<int> call(
        std::string_view op, std::string_view overload, ArgMap args, const std::vector<OutSpec>& outs);
    int call1(std::string_view op, std::string_view overload, ArgMap args, const OutSpec& out);
    /** The spec of a tensor like v (optionally of another dtype). */
    [[nodiscard]] OutSpec like(int v, std::optional<ScalarType> dtype = std::nullopt) const;
    [[nodiscard]] static OutSpec spec(ScalarType dtype, std::vector<std::int32_t> sizes, std::uint32_t dynamicDims = 0);

    // ---- pointwise
    /** A binary pointwise op on two tensors (add, sub, mul, div, pow, maximum, minimum, atan2, remainder, fmod,
     *  eq/ne/lt/le/gt/ge, logical_and/or/xor, bitwise_and/or/xor): broadcast shape, torch's type promotion. */
    int binary(std::string_view op, int a, int b);
    /** The same with a Python scalar for `other` (the op's Scalar overload). */
    int binaryScalar(std::string_view op, int a, const LArg& other);
    int add(int a, int b) { return binary("add", a, b); }
    int sub(int a, int b) { return binary("sub", a, b); }
    int mul(int a, int b) { return binary("mul", a, b); }
    int div(int a, int b) { return binary("div", a, b); }
    int add(int a, double s) { return binaryScalar("add", a, num(s)); }
    int sub(int a, double s) { return binaryScalar("sub", a, num(s)); }
    int mul(int a, double s) { return binaryScalar("mul", a, num(s)); }
    int div(int a, double s) { return binaryScalar("div", a, num(s)); }
    /** s - a (rsub). */
    int rsub(int a, double s) { return binaryScalar("rsub", a, num(s)); }
    int pow(int a, double exponent) { return binaryScalar("pow", a, num(exponent)); }
    /** A unary pointwise op (sigmoid, tanh, exp, log, log1p, expm1, sqrt, rsqrt, erf, reciprocal, sin, cos, neg,
     *  abs, sign, relu, floor, ceil, round, trunc, logical_not, bitwise_not, isnan, isinf). */
    int unary(std::string_view op, int x);
    /** where(condition, a, b), broadcast. */
    int where(int condition, int a, int b);
    /** where with a scalar for a or b: the scalar becomes a 0-d constant of the other operand's dtype. */
    int whereScalar(int condition, int a, double b);
    int whereScalar(int condition, double a, int b);
    int clamp(int x, std::optional<double> lo, std::optional<double> hi);
    /** x as dtype t (dim_order_ops::_to_dim_order_copy); x itself when it already is. */
    int cast(int x, ScalarType t);

    // ---- creation
    /** A constant tensor stored in the program (values in row-major order, converted to dtype t). */
    int constant(const std::vector<double>& values, std::vector<std::int32_t> shape, ScalarType t);
    int scalarConstant(double v, ScalarType t) { return constant({ v }, {}, t); }
    int full(const Dims& sizes, double value, ScalarType t);
    int fullLike(int x, double value, std::optional<ScalarType> t = std::nullopt);
    /** arange(start, end, step) of dtype t (static bounds). */
    int arange(double start, double end, double step, ScalarType t);

    // ---- shape
    /** view_copy to `sizes` (one -1 is inferred). */
    int view(int x, const Dims& sizes);
    int view(int x, const std::vector<std::int64_t>& sizes) { return view(x, lits(sizes)); }
    int permute(int x, const std::vector<std::int64_t>& dims);
    int transpose(int x, std::int64_t d0, std::int64_t d1);
    int unsqueeze(int x, std::int64_t d);
    int squeeze(int x, const std::vector<std::int64_t>& dims);
    /** expand_copy to `sizes` (-1 keeps a dimension). */
    int expand(int x, const Dims& sizes);
    int slice(int x, std::int64_t dim, const IntElem& start, const IntElem& end, std::int64_t step = 1);
    int slice(int x, std::int64_t dim, std::int64_t start, std::int64_t end, std::int64_t step = 1)
    {
        return slice(x, dim, lit(start), lit(end), step);
    }
    int select(int x, std::int64_t dim, const IntElem& index);
    int select(int x, std::int64_t dim, std::int64_t index) { return select(x, dim, lit(index)); }
    /** split_with_sizes_copy: pieces of `sizes` along dim. */
    std::vector<int> split(int x, const std::vector<std::int64_t>& sizes, std::int64_t dim);
    int cat(const std::vector<int>& xs, std::int64_t dim);
    int stack(const std::vector<int>& xs, std::int64_t dim);
    int flip(int x, const std::vector<std::int64_t>& dims);
    /** A contiguous copy (dim_order_ops::_clone_dim_order). */
    int clone(int x);
    int repeat(int x, const std::vector<std::int64_t>& repeats);
    int indexSelect(int x, std::int64_t dim, int index);
    /** index.Tensor: x[indices...] (-1 = a full slice, None). */
    int index(int x, const std::vector<int>& indices);
    int constantPad(int x, const std::vector<std::int64_t>& pad, double value);
    /** base with src written over base[..., start:end:step, ...] along dim (slice_scatter). */
    int sliceScatter(int base, int src, std::int64_t dim, const IntElem& start, const IntElem& end, std::int64_t step);
    /** base with src written over base.select(dim, index) (select_scatter). */
    int selectScatter(int base, int src, std::int64_t dim, const IntElem& index);

    // ---- linear algebra
    int mm(int a, int b);
    int bmm(int a, int b);
    int addmm(int bias, int a, int b, double beta = 1.0, double alpha = 1.0);
    /** torch.matmul for any ranks (1-D and batched operands, broadcast batch dimensions). */
    int matmul(int a, int b);
    /** linear(x, w, b): permute + addmm, or mm without bias, folding x's leading dimensions. */
    int linear(int x, int w, int bias);

    // ---- reductions
    int sum(int x, const std::vector<std::int64_t>& dims, bool keepdim, std::optional<ScalarType> t = std::nullopt);
    int mean(int x, const std::vector<std::int64_t>& dims, bool keepdim);
    int amax(int x, const std::vector<std::int64_t>& dims, bool keepdim);
    int amin(int x, const std::vector<std::int64_t>& dims, bool keepdim);
    /** var with `correction` (0: biased, 1: unbiased). */
    int var(int x, const std::vector<std::int64_t>& dims, double correction, bool keepdim);
    int any(int x, const std::vector<std::int64_t>& dims, bool keepdim);
    int softmax(int x, std::int64_t dim);
    int logSoftmax(int x, std::int64_t dim);
    int cumsum(int x, std::int64_t dim);

    /** The shape of a reduction of x over dims. */
    OutSpec reduced(int x, const std::vector<std::int64_t>& dims, bool keepdim, ScalarType t);
    /** Broadcast shape of a and b (an error when they do not broadcast). */
    std::optional<OutSpec> broadcast(int a, int b, ScalarType t);
    std::optional<OutSpec> broadcast(const OutSpec& a, const OutSpec& b, ScalarType t);

    // ---- attention family (attentiondecompositions.cpp)
    /** tril(x, diagonal): the lower triangle of the last two dimensions, the rest zero (tril.out). */
    int tril(int x, std::int64_t diagonal = 0);
    /** diagonal_copy(x, offset, dim1, dim2): dim1 and dim2 removed, their diagonal appended as the last dimension. */
    int diagonal(int x, std::int64_t offset, std::int64_t dim1, std::int64_t dim2);

    const Node& node() const { return m_n; }

    /** A size argument as an LArg (an Int, or a reference to a symbolic value). */
    static LArg sizeArg(const IntElem& e);

    // ---- shape, masks and factories, reductions and math (shapedecompositions.cpp, mathdecompositions.cpp)
    /** The dump's shape and dtype of the node's k-th tensor output (flattened as Decomposer::finish counts them):
     *  upper bounds, symbolic dimensions marked dynamic. nullopt when the node has no such output. */
    [[nodiscard]] std::optional<OutSpec> nodeOutput(std::size_t k) const;
    /** arange(0, end) of dtype t with a size that may be symbolic (arange.out; the kernel sizes its output). */
    int arangeTo(const IntElem& end, ScalarType t);
    /** A string argument (rounding modes). */
    static LArg str(const std::string& s);
    /** The dtype of op(x, scalar) for a tensor x and a Python scalar (the scalar promotes only across categories). */
    [[nodiscard]] ScalarType scalarResult(int x, const LArg& scalar) const;
    /** logical_not(any(logical_not(x), dims, keepdim)): torch's all (dims empty: every dimension). */
    int all(int x, const std::vector<std::int64_t>& dims, bool keepdim);

    // ---- recurrent family
    /** unbind_copy: the slices of x along dim (dim removed), one per index. */
    std::vector<int> unbind(int x, std::int64_t dim);

private:
    int newValue(const OutSpec& s);
    int symValue(std::int64_t upperBound);
    IntElem symOp(std::string_view op, const IntElem& a, const IntElem& b, std::int64_t upperBound);
    int reduce(std::string_view op, std::string_view overload, int x, const std::vector<std::int64_t>& dims,
        bool keepdim, ScalarType t, ArgMap extra = {});

    Lowering& m_l;
    const Node& m_n;
    std::optional<Error> m_error;
};

/** torch's result dtype of a binary op on a and b (rank-0 tensors promote only across categories). */
ScalarType promoteTypes(ScalarType a, bool aZeroDim, ScalarType b, bool bZeroDim);

} // namespace pte::emitcore
