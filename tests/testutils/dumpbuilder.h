// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Exported-program dumps built node by node in the tests, the way torch.export serializes them (schema 8.12,
// single-key unions, aten schema argument names, arguments left at their default omitted), plus the small value
// helpers the execution tests share. `Dump::trainingIr` makes the document what torch 2.9's default
// torch.export.export writes (verifiers ["TRAINING"], node metadata, module_call_graph); pt2writer.h writes it
// as a .pt2 archive.

#include "pte/graph.h"
#include "pte/result.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <variant>
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
/** A SymInt[] mixing sizes known at export and symbolic ones (`view` sizes of a dynamic tensor): a number is
 *  as_int, a name the sym value of that node. */
nlohmann::json SymSizes(const std::vector<std::variant<std::int64_t, std::string>>& items);
/** A memory format (torch serde: 1 contiguous, 2 channels_last, 4 preserve). */
nlohmann::json MemoryFormat(int code);
/** A device (torch.zeros(..., device=x.device)): {"as_device": {"type": "cpu", "index": null}}. */
nlohmann::json Device(const std::string& type = "cpu");
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
    /** A weight, buffer or constant with its bytes. */
    struct Weight
    {
        std::string placeholder;
        std::string fqn;
        bool parameter;
        int dtype;
        std::vector<double> data;
        bool constant = false; ///< a lifted tensor constant
        bool persistent = true; ///< buffers: in the state dict (false: among the program's constants)
    };

    void input(const std::string& name, std::vector<std::int64_t> shape, int dtype = kFloat);
    /** A parameter (or a persistent buffer) with its bytes in the dump's weights. */
    void weight(const std::string& placeholder, const std::string& fqn, std::vector<std::int64_t> shape,
        std::vector<double> data, bool parameter = true, int dtype = kFloat);
    /** A buffer with its bytes; a non-persistent one (register_buffer(..., persistent=False): KV caches, masks) is
     *  not in the state dict, so a .pt2 archive keeps it among the constants. */
    void buffer(const std::string& placeholder, const std::string& fqn, std::vector<std::int64_t> shape,
        std::vector<double> data, int dtype = kFloat, bool persistent = true);
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
    /** A node returning nothing (torch.export's runtime checks: _assert_scalar, _assert_tensor_metadata...): its
     *  outputs are [], as torch serializes an op whose schema returns (). */
    void call(const std::string& name, const std::string& target, nlohmann::json args);
    void output(const std::string& name);
    /** A symbolic scalar output ("int", "bool" or "float"). */
    void symOutput(const std::string& name, const std::string& kind = "int");
    /** A buffer mutation output: `name` is the new value of buffer `fqn`. */
    void mutation(const std::string& name, const std::string& fqn);
    /** Gives tensor `name` these strides (a channels-last input, a transposed view...). */
    void strides(const std::string& name, const std::vector<std::int64_t>& strides);
    /** The strides tensor `name` has (contiguous unless `strides` said otherwise; symbolic ones at their hint). */
    [[nodiscard]] std::vector<std::int64_t> strides(const std::string& name) const;
    /** Makes dimension `dim` of tensor `name` (an input or a node's output) the symbol `symbol`, at most `max`
     *  (the hint), or `coefficient` times it ("4*s0", a batch folded with the heads). In the training IR the strides
     *  that step over that dimension become symbolic too ("32*s27"), as torch records them. */
    void dynamic(const std::string& name, std::size_t dim, const std::string& symbol, std::int64_t max,
        std::int64_t coefficient = 1);

    /**
     * Writes the rest as torch 2.9's default `torch.export.export(module, args)` does (the training IR):
     * verifiers ["TRAINING"], torch_version, parameters and the values computed from them `requires_grad`,
     * module_call_graph with the top-level in/out specs (pytree JSON), forward_arg_names and one entry per
     * registered module, node metadata from `module`/`at`. Call it first.
     */
    void trainingIr(const std::string& torchVersion = "2.9.0+cpu");
    /** Registers the nn.Module at `path` ("" = the exported module itself, "layer1.0.conv1"...) and its class
     *  ("torch.nn.modules.conv.Conv2d"): nn_module_stack names it for the nodes it encloses. */
    void module(const std::string& path, const std::string& type);
    /**
     * The metadata of the nodes added next, in torch's serialized form: nn_module_stack of module `path` and the
     * registered modules enclosing it ("key,path,type" joined by ';'), source_fn_stack, torch_fn for `fn`
     * (the torch function the Python code called, "builtin_function_or_method.conv2d" or
     * "function.relu", numbered per function as torch counts them; empty: none, as for tensor methods) and a
     * stack_trace ending at the Python line `code` of forward.
     */
    void at(const std::string& path, const std::string& fn, const std::string& code);

    /** The serialized ExportedProgram (what a .pt2 archive holds as models/model.json). */
    [[nodiscard]] nlohmann::json document() const;
    /** Parameters, buffers and constants in the order they were added, with their bytes. */
    [[nodiscard]] const std::vector<Weight>& weights() const { return m_weights; }
    [[nodiscard]] Result<std::shared_ptr<ExportedProgram>> build(const std::string& label) const;

private:
    static std::string target(const std::string& t);
    void addNode(nlohmann::json node);
    [[nodiscard]] nlohmann::json moduleCallGraph() const;
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
    bool m_training = false;
    std::string m_torchVersion = "2.9.0";
    std::vector<std::pair<std::string, std::string>> m_modules; ///< path, class
    std::map<std::string, int> m_torchFnCounts;
    nlohmann::json m_meta = nlohmann::json::object(); ///< metadata of the nodes added next
    int m_line = 20;
};

} // namespace pte::test
