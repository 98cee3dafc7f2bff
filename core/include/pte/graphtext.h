// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/graph.h"
#include "pte/program.h"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

/**
 * @file
 * How graph-dump values read as text, the same in `ptelens-cli graph` and in the GUI's views: arguments, tensor
 * metadata, symbolic sizes and tensor elements, written the way Python prints them (True/False, None, the shortest
 * decimal that reads back as the same float).
 */

namespace pte {

/** A symbolic int: its value when known, else its expression ("s0"). */
[[nodiscard]] std::string symIntText(const SymInt& s);
/** "[2, s0, 3]" */
[[nodiscard]] std::string shapeText(const std::vector<SymInt>& sizes);
/** "f32[2, 3]", with "@cuda:0" for a tensor that is not on the CPU. */
[[nodiscard]] std::string tensorMetaText(const TensorMeta& meta);
/**
 * One tensor element at its dtype's precision: "True"/"False" for bool, an integer for integer types, "nan",
 * "inf", "-inf", else the shortest text that reads back as the same f32/f64 (Python's repr), 4 significant digits
 * for f16 and 3 for bf16 (what their mantissas carry).
 */
[[nodiscard]] std::string elementText(double value, ScalarType dtype);
/** The first `maxShown` elements joined by ", ", followed by ", …" when there are more. */
[[nodiscard]] std::string elementsText(std::span<const double> values, ScalarType dtype, std::size_t maxShown);
/**
 * A compact Python-like rendering of a node argument: a tensor's value name ("None" for an absent optional),
 * lists in brackets, dtypes by short name ("f32"), floats as elementText for f64, strings quoted (cut to 45
 * characters and "..." past 48), "graph(<name>, <n> nodes)" for a subgraph, "{key: value}" for a dict.
 */
[[nodiscard]] std::string argumentText(const Argument& arg);

/**
 * The module paths named in a node's serialized nn_module_stack metadata ("key,path,type;key,path,type"),
 * outermost first, without the root module's empty path. Separators inside brackets ((), [], {}) belong to the
 * field: "b,layers.0.f(x, y),U" names the path "layers.0.f(x, y)". The Graph view's module path and the profile
 * table's module hierarchy read the stack with this one function.
 */
[[nodiscard]] std::vector<std::string> nnModulePaths(std::string_view nnModuleStack);

} // namespace pte
