// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

/**
 * @file
 * Operator schemas in the torch schema syntax ("aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1,
 * Tensor(a!) out) -> Tensor(a!)"), parsed into argument names, types, defaults, kwarg-only markers and
 * returns. The registry holds the ATen core ops ExecuTorch programs use, their out variants, and the
 * ExecuTorch namespaces (dim_order_ops, quantized_decomposed, executorch_prim); the schema strings are
 * data (opschemas.inc).
 */

namespace pte::emitcore {

enum class BaseType : std::uint8_t
{
    Tensor,
    Int,
    SymInt,
    Float,
    Bool,
    Str,
    Scalar,
    ScalarType,
    Layout,
    Device,
    MemoryFormat,
    Other,
};

struct ArgType
{
    BaseType base = BaseType::Other;
    bool optional = false; ///< T? (or T[]?)
    bool isList = false; ///< T[] / T[N]
    bool elemOptional = false; ///< Tensor?[]
    int fixedSize = 0; ///< N of T[N]
    bool mutates = false; ///< Tensor(a!)
    std::string text; ///< as written
};

struct SchemaArg
{
    std::string name;
    ArgType type;
    std::optional<std::string> defaultValue; ///< as written ("1", "None", "[0,0]", "contiguous_format")
    bool kwargOnly = false;
};

struct OpSchema
{
    std::string ns; ///< "aten"
    std::string name; ///< "add"
    std::string overload; ///< "out"; empty for "default"
    std::vector<SchemaArg> args;
    std::vector<SchemaArg> returns;

    /** "aten::add" */
    [[nodiscard]] std::string qualifiedName() const { return ns + "::" + name; }
    /** "aten::add.out" (the runtime's kernel key), or "aten::add" for the default overload. */
    [[nodiscard]] std::string key() const
    {
        return overload.empty() ? qualifiedName() : qualifiedName() + "." + overload;
    }
    /** An out variant: has kwarg-only mutable (Tensor(a!)) arguments. */
    [[nodiscard]] bool isOutFn() const noexcept;
    /** Indices of the out arguments, in order. */
    [[nodiscard]] std::vector<std::size_t> outArgs() const;
    /** Symbolic op (executorch_prim scalar ops, aten::sym_size.int, ...): one scalar return. */
    [[nodiscard]] bool isSymOp() const noexcept;
    [[nodiscard]] int argIndex(std::string_view argName) const noexcept;
};

/** Parses one schema string. */
[[nodiscard]] Result<OpSchema> parseSchema(std::string_view text);

/** The built-in registry. */
class SchemaRegistry
{
public:
    static const SchemaRegistry& instance();
    /** By "ns::name" and overload ("" or "default" for the default overload). */
    [[nodiscard]] const OpSchema* find(std::string_view qualifiedName, std::string_view overload) const noexcept;
    /** All overloads of "ns::name". */
    [[nodiscard]] std::vector<const OpSchema*> overloads(std::string_view qualifiedName) const;
    /** The out variant of a functional schema (ExecuTorch's to_out_variant), or nullptr. */
    [[nodiscard]] const OpSchema* outVariant(const OpSchema& functional) const noexcept;
    [[nodiscard]] std::size_t size() const noexcept { return m_schemas.size(); }
    /** Schema strings that failed to parse (should be empty; tested). */
    [[nodiscard]] const std::vector<std::string>& parseErrors() const noexcept { return m_errors; }

private:
    SchemaRegistry();
    [[nodiscard]] const OpSchema* computeOutVariant(const OpSchema& functional) const noexcept;
    std::vector<OpSchema> m_schemas;
    /** Hashes std::string and std::string_view alike, so that find() looks keys up without building a string. */
    struct KeyHash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view> {}(s); }
    };
    std::unordered_map<std::string, std::size_t, KeyHash, std::equal_to<>> m_byKey; ///< "ns::name.overload" -> index
    std::vector<const OpSchema*> m_outVariant; ///< per schema
    std::vector<std::string> m_errors;
};

} // namespace pte::emitcore
