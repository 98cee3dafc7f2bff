// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Exported-program dumps built node by node in the tests, the way torch.export serializes them (schema 8.12,
// single-key unions, aten schema argument names, arguments left at their default omitted), plus the small value
// helpers the execution tests share.

#include "pte/graph.h"
#include "pte/result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace pte::test {

// torch.export's serialized ScalarType codes (torch/_export/serde/schema.py).
constexpr int kByte = 1;
constexpr int kChar = 2;
constexpr int kShort = 3;
constexpr int kInt = 4;
constexpr int kLong = 5;
constexpr int kHalf = 6;
constexpr int kFloat = 7;
constexpr int kDouble = 8;
constexpr int kComplexFloat = 10;
constexpr int kBool = 12;
constexpr int kBFloat16 = 13;

// Argument values as torch.export serializes them.
nlohmann::json T(const std::string& name);
nlohmann::json I(std::int64_t v);
nlohmann::json F(double v);
nlohmann::json B(bool v);
nlohmann::json S(const std::string& v);
nlohmann::json None();
nlohmann::json Dtype(int code);
nlohmann::json Ints(std::vector<std::int64_t> v);
nlohmann::json Floats(std::vector<double> v);
nlohmann::json Bools(std::vector<bool> v);
nlohmann::json Tensors(const std::vector<std::string>& names);
/** A list of optional tensors (index.Tensor's indices); an empty name is None. */
nlohmann::json OptionalTensors(const std::vector<std::string>& names);
nlohmann::json SymInts(const std::vector<std::string>& names);
nlohmann::json SymArg(const std::string& name);
/** A memory format (torch serde: 1 contiguous, 2 channels_last, 4 preserve). */
nlohmann::json MemoryFormat(int code);
/** A positional (kind 1) or keyword (kind 2) argument. */
nlohmann::json arg(const char* name, nlohmann::json value, int kind = 1);
nlohmann::json kwarg(const char* name, nlohmann::json value);

/** v rounded to float. */
double f32(double v);
/** Deterministic float-representable values in [-scale, scale]. */
std::vector<double> values(std::size_t n, std::uint32_t seed, double scale = 1.0);
/** f applied to each element, rounded to float. */
std::vector<double> map(const std::vector<double>& v, const std::function<double(double)>& f);
/** `values` as raw little-endian bytes of the torch serde dtype `dtype`. */
std::vector<std::uint8_t> encode(const std::vector<double>& values, int dtype);

/** A single-method exported program built node by node, as torch.export would write it. */
class Dump
{
public:
    void input(const std::string& name, std::vector<std::int64_t> shape, int dtype = kFloat);
    /** A parameter (or a persistent buffer) with its bytes in the dump's weights. */
    void weight(const std::string& placeholder, const std::string& fqn, std::vector<std::int64_t> shape,
        std::vector<double> data, bool parameter = true, int dtype = kFloat);
    /** A lifted tensor constant (torch.tensor(...) in the module) with its bytes. */
    void constant(const std::string& placeholder, const std::string& fqn, std::vector<std::int64_t> shape,
        std::vector<double> data, int dtype = kFloat);
    /** A call_function node with one tensor output `name`. `target` is "add.Tensor" (aten) or a full target
     *  ("torch.ops.<ns>.<op>.<overload>", "_operator.add", "executorch.exir.memory.view"...). */
    void node(const std::string& name, const std::string& target, nlohmann::json args, std::vector<std::int64_t> shape,
        int dtype = kFloat);
    /** A node returning a tuple of tensors (one output entry each), all of `dtype` unless `dtypes` says. */
    void tupleNode(const std::string& name, const std::string& target, nlohmann::json args,
        const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& outs, int dtype = kFloat,
        const std::vector<int>& dtypes = {});
    /** A node returning Tensor[] (split, unbind): one as_tensors output. */
    void listNode(const std::string& name, const std::string& target, nlohmann::json args,
        const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& outs, int dtype = kFloat);
    /** A node returning a symbolic scalar (sym_size, _local_scalar_dense, Python operators on SymInts): `kind` is
     *  "int", "bool" or "float". */
    void symNode(const std::string& name, const std::string& target, nlohmann::json args, const std::string& expr,
        std::int64_t hint, const std::string& kind = "int");
    void output(const std::string& name);
    /** A symbolic scalar output ("int", "bool" or "float"). */
    void symOutput(const std::string& name, const std::string& kind = "int");
    /** A buffer mutation output: `name` is the new value of buffer `fqn`. */
    void mutation(const std::string& name, const std::string& fqn);
    /** Gives tensor `name` these strides (a channels-last input, a transposed view...). */
    void strides(const std::string& name, const std::vector<std::int64_t>& strides);
    /** Makes dimension `dim` of tensor `name` (an input or a node's output) the symbol `symbol`, at most `max`. */
    void dynamic(const std::string& name, std::size_t dim, const std::string& symbol, std::int64_t max);

    [[nodiscard]] Result<std::shared_ptr<ExportedProgram>> build(const std::string& label) const;

private:
    struct Weight
    {
        std::string placeholder;
        std::string fqn;
        bool parameter;
        int dtype;
        std::vector<double> data;
    };
    static std::string target(const std::string& t);
    nlohmann::json m_tv = nlohmann::json::object();
    nlohmann::json m_symInts = nlohmann::json::object();
    nlohmann::json m_symBools = nlohmann::json::object();
    nlohmann::json m_symFloats = nlohmann::json::object();
    nlohmann::json m_ranges = nlohmann::json::object();
    nlohmann::json m_nodes = nlohmann::json::array();
    nlohmann::json m_inputs = nlohmann::json::array();
    nlohmann::json m_inputSpecs = nlohmann::json::array();
    nlohmann::json m_outputs = nlohmann::json::array();
    nlohmann::json m_outputSpecs = nlohmann::json::array();
    std::vector<Weight> m_weights;
};

} // namespace pte::test
