// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace pte::ptefile {

/**
 * Writes JSON text as it goes, to a sink, in chunks of about 64 KiB: nothing of the document is kept but the
 * current nesting. Pretty-printed like nlohmann::json::dump(indent) (or on one line for indent -1): "key": value,
 * one member or element per line, empty containers as {} and []. Strings are escaped; bytes that are not valid
 * UTF-8 become U+FFFD. Doubles are the shortest text that reads back as the same value ("1.0" for integral ones);
 * the caller decides what to write for values that are not finite.
 */
class JsonWriter
{
public:
    using Sink = std::function<void(std::string_view)>;
    JsonWriter(Sink sink, int indent);
    ~JsonWriter() { flush(); }
    JsonWriter(const JsonWriter&) = delete;
    JsonWriter& operator=(const JsonWriter&) = delete;

    void beginObject() { open('{'); }
    void endObject() { close('}'); }
    void beginArray() { open('['); }
    void endArray() { close(']'); }
    /** The key of the next member of the current object. */
    void key(std::string_view k);

    void value(std::int64_t v);
    void value(std::uint64_t v);
    void value(std::int32_t v) { value(std::int64_t(v)); }
    void value(std::uint32_t v) { value(std::uint64_t(v)); }
    void value(double v);
    void value(bool v);
    void value(std::string_view s);
    void value(const char* s) { value(std::string_view(s)); }
    void value(const std::string& s) { value(std::string_view(s)); }
    void null();

    /** key(k) then value(v). */
    template <typename T> void member(std::string_view k, const T& v)
    {
        key(k);
        value(v);
    }

    /** Hands what is buffered to the sink. */
    void flush();
    /** Appends a newline (the end of the document) and flushes. */
    void finish();

private:
    void open(char c);
    void close(char c);
    /** Separator and indentation before a new element (not after a key). */
    void beforeValue();
    void newline(std::size_t depth);
    void raw(std::string_view s)
    {
        m_buf.append(s);
        if (m_buf.size() >= kChunk)
            flush();
    }
    void escaped(std::string_view s);

    static constexpr std::size_t kChunk = std::size_t(64) << 10;
    Sink m_sink;
    int m_indent;
    std::string m_buf;
    std::vector<std::uint64_t> m_counts; ///< elements written so far, per open container
    bool m_afterKey = false;
};

} // namespace pte::ptefile
