// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/graph.h"

#include <string>
#include <utility>

/**
 * @file
 * Where a lowering message points (internal to the lowering).
 */

namespace pte::emitcore {

inline std::string describeNode(const Node& n)
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

inline std::string operator+(std::string a, const Where& w) { return a += w.str(); }
inline std::string operator+(const Where& w, const char* b) { return w.str() + b; }

} // namespace pte::emitcore
