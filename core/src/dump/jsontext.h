// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Private to the graph-dump reader: JSON text -> DOM, shared by the exported-program decoder and the container readers.

#include "pte/result.h"

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace pte::dump {

using json = nlohmann::json;

/**
 * Parses JSON text into a DOM, without exceptions. Bare Infinity/-Infinity/NaN tokens (Python's allow_nan) read as
 * the strings "Infinity"/"-Infinity"/"NaN". Errors name `source` and the byte offset in `text`; documents nested
 * deeper than 512 levels are refused.
 */
Result<json> parseJsonText(std::string_view text, const std::string& source);

/** Receives one streamed element: its DOM, its index (nodes) or key (tensor values). */
using JsonItemFn = std::function<void(json&& item, std::size_t index, const std::string& key)>;

/**
 * Parses an exported program's text as parseJsonText does, except graph_module.graph.nodes[*] and
 * graph_module.graph.tensor_values.*: each element is handed to a callback as a DOM of its own and freed, so `root`
 * holds the rest (with those two collections empty). A callback's error is recorded by the caller.
 */
Result<void> parseJsonStreamed(
    std::string_view text, const std::string& source, json& root, JsonItemFn onNode, JsonItemFn onTensorValue);

/** A null value that lives as long as the program (what field() returns for a missing member). */
const json& nullJson();

/** The member `key` of `j`; a null value when `j` is not an object or has no such member. */
const json& field(const json& j, const char* key);

/** How a value reads in a message: "an object", "a string", "null", ... */
std::string describe(const json& j);

} // namespace pte::dump
