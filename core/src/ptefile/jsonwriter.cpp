// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "ptefile/jsonwriter.h"

#include <charconv>

namespace pte::ptefile {

JsonWriter::JsonWriter(Sink sink, int indent)
    : m_sink(std::move(sink))
    , m_indent(indent)
{
    m_buf.reserve(kChunk + 4096);
}

void JsonWriter::flush()
{
    if (!m_buf.empty()) {
        m_sink(m_buf);
        m_buf.clear();
    }
}

void JsonWriter::finish()
{
    m_buf.push_back('\n');
    flush();
}

void JsonWriter::newline(std::size_t depth)
{
    if (m_indent < 0)
        return;
    m_buf.push_back('\n');
    m_buf.append(depth * std::size_t(m_indent), ' ');
}

void JsonWriter::beforeValue()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_counts.empty())
        return;
    if (m_counts.back()++ > 0)
        m_buf.push_back(',');
    newline(m_counts.size());
}

void JsonWriter::open(char c)
{
    beforeValue();
    m_buf.push_back(c);
    m_counts.push_back(0);
}

void JsonWriter::close(char c)
{
    const bool any = m_counts.back() > 0;
    m_counts.pop_back();
    if (any)
        newline(m_counts.size());
    m_buf.push_back(c);
    if (m_buf.size() >= kChunk)
        flush();
}

void JsonWriter::key(std::string_view k)
{
    beforeValue();
    escaped(k);
    m_buf.append(m_indent < 0 ? ":" : ": ");
    m_afterKey = true;
}

void JsonWriter::value(std::int64_t v)
{
    beforeValue();
    char b[24];
    raw(std::string_view(b, std::size_t(std::to_chars(b, b + sizeof b, v).ptr - b)));
}

void JsonWriter::value(std::uint64_t v)
{
    beforeValue();
    char b[24];
    raw(std::string_view(b, std::size_t(std::to_chars(b, b + sizeof b, v).ptr - b)));
}

void JsonWriter::value(double v)
{
    beforeValue();
    char b[40];
    char* end = std::to_chars(b, b + sizeof b - 2, v).ptr;
    bool plain = true; // only digits and a sign: add ".0" so it reads back as a double
    for (const char* p = b; p < end; ++p)
        plain = plain && ((*p >= '0' && *p <= '9') || *p == '-');
    if (plain) {
        *end++ = '.';
        *end++ = '0';
    }
    raw(std::string_view(b, std::size_t(end - b)));
}

void JsonWriter::value(bool v)
{
    beforeValue();
    raw(v ? "true" : "false");
}

void JsonWriter::value(std::string_view s)
{
    beforeValue();
    escaped(s);
    if (m_buf.size() >= kChunk)
        flush();
}

void JsonWriter::null()
{
    beforeValue();
    raw("null");
}

namespace {
/** Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not one. */
std::size_t utf8Length(std::string_view s, std::size_t i)
{
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = b(0);
    std::size_t n = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        lo = c == 0xe0 ? 0xa0 : 0x80; // no overlong forms
        hi = c == 0xed ? 0x9f : 0xbf; // no surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        lo = c == 0xf0 ? 0x90 : 0x80;
        hi = c == 0xf4 ? 0x8f : 0xbf; // nothing past U+10FFFF
    } else {
        return 0;
    }
    if (i + n > s.size() || b(1) < lo || b(1) > hi)
        return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (b(k) < 0x80 || b(k) > 0xbf)
            return 0;
    return n;
}
} // namespace

void JsonWriter::escaped(std::string_view s)
{
    static constexpr char kHex[] = "0123456789abcdef";
    m_buf.push_back('"');
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            m_buf.push_back(char(c));
            ++i;
            continue;
        }
        switch (c) {
        case '"':
            m_buf.append("\\\"");
            break;
        case '\\':
            m_buf.append("\\\\");
            break;
        case '\b':
            m_buf.append("\\b");
            break;
        case '\f':
            m_buf.append("\\f");
            break;
        case '\n':
            m_buf.append("\\n");
            break;
        case '\r':
            m_buf.append("\\r");
            break;
        case '\t':
            m_buf.append("\\t");
            break;
        default:
            if (c < 0x20) {
                m_buf.append("\\u00");
                m_buf.push_back(kHex[c >> 4]);
                m_buf.push_back(kHex[c & 15]);
            } else if (const std::size_t n = utf8Length(s, i)) {
                m_buf.append(s.substr(i, n));
                i += n;
                continue;
            } else {
                m_buf.append("\xef\xbf\xbd"); // U+FFFD for a byte that starts no valid sequence
            }
        }
        ++i;
    }
    m_buf.push_back('"');
}

} // namespace pte::ptefile
