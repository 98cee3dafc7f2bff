// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "etdump/flatbufferwalk.h"

#include "base/littleendian.h"

namespace pte::etdump {

namespace {

class Walker
{
public:
    Walker(std::span<const std::uint8_t> buffer, std::uint32_t maxDepth)
        : m_buf(buffer)
        , m_maxDepth(maxDepth)
    { }

    std::optional<WalkProblem> table(std::uint64_t at, const WalkTable& t, const std::string& path, std::uint32_t depth)
    {
        if (depth > m_maxDepth)
            return problem(at, path, "tables nest deeper than " + std::to_string(m_maxDepth));
        if (!inside(at, 4) || at % 4 != 0)
            return problem(at, path, std::string("the ") + t.name + " table lies outside the buffer or is misaligned");
        const std::int32_t soffset = std::int32_t(base::loadU32(m_buf.data() + at));
        const std::int64_t vt = std::int64_t(at) - soffset;
        if (vt < 0 || !inside(std::uint64_t(vt), 4) || vt % 2 != 0)
            return problem(at, path,
                std::string("the ") + t.name + " table's vtable offset " + std::to_string(soffset)
                    + " points outside the buffer");
        const std::uint16_t vtSize = load16(std::uint64_t(vt));
        const std::uint16_t tableSize = load16(std::uint64_t(vt) + 2);
        if (vtSize < 4 || vtSize % 2 != 0 || !inside(std::uint64_t(vt), vtSize))
            return problem(std::uint64_t(vt), path,
                std::string("the ") + t.name + " vtable size " + std::to_string(vtSize) + " is invalid");
        if (!inside(at, tableSize) || tableSize < 4)
            return problem(at, path,
                std::string("the ") + t.name + " table (" + std::to_string(tableSize) + " bytes) runs past the buffer");
        const std::size_t slots = (vtSize - 4) / 2;
        for (std::size_t slot = 0; slot < slots && slot < t.fields.size(); ++slot) {
            const std::uint16_t fo = load16(std::uint64_t(vt) + 4 + 2 * slot);
            if (fo == 0)
                continue;
            const WalkField& f = t.fields[slot];
            const std::string fpath = path.empty() ? f.name : path + "." + f.name;
            const std::uint64_t field = at + fo;
            const std::uint8_t inlineSize = f.kind == WalkFieldKind::Scalar ? f.size : 4;
            if (fo + inlineSize > tableSize)
                return problem(field, fpath, "the field lies outside its table");
            if (inlineSize > 1 && field % inlineSize != 0)
                return problem(field, fpath, "the field is misaligned");
            if (f.kind == WalkFieldKind::Scalar)
                continue;
            const std::uint64_t target = field + base::loadU32(m_buf.data() + field);
            if (auto p = reference(target, f, fpath, depth))
                return p;
        }
        return std::nullopt;
    }

private:
    std::optional<WalkProblem> reference(
        std::uint64_t target, const WalkField& f, const std::string& path, std::uint32_t depth)
    {
        switch (f.kind) {
        case WalkFieldKind::Table:
            return table(target, *f.table, path, depth + 1);
        case WalkFieldKind::String:
            return string(target, path);
        case WalkFieldKind::ScalarVector:
        case WalkFieldKind::TableVector:
        case WalkFieldKind::StringVector: {
            const std::uint8_t elem = f.kind == WalkFieldKind::ScalarVector ? f.size : 4;
            if (!inside(target, 4) || target % 4 != 0)
                return problem(target, path, "the vector's length lies outside the buffer or is misaligned");
            const std::uint64_t n = base::loadU32(m_buf.data() + target);
            if (elem > 4 && (target + 4) % elem != 0)
                return problem(target, path, "the vector's elements are misaligned");
            if (n > (m_buf.size() - target - 4) / elem)
                return problem(target, path,
                    "the vector's " + std::to_string(n) + " elements run past the end of the buffer ("
                        + std::to_string(m_buf.size()) + " bytes)");
            if (f.kind == WalkFieldKind::ScalarVector)
                return std::nullopt;
            for (std::uint64_t i = 0; i < n; ++i) {
                const std::uint64_t slot = target + 4 + 4 * i;
                const std::uint64_t elemTarget = slot + base::loadU32(m_buf.data() + slot);
                const std::string epath = path + "[" + std::to_string(i) + "]";
                auto p = f.kind == WalkFieldKind::TableVector ? table(elemTarget, *f.table, epath, depth + 1)
                                                              : string(elemTarget, epath);
                if (p)
                    return p;
            }
            return std::nullopt;
        }
        case WalkFieldKind::Scalar:
            break;
        }
        return std::nullopt;
    }

    std::optional<WalkProblem> string(std::uint64_t at, const std::string& path)
    {
        if (!inside(at, 4) || at % 4 != 0)
            return problem(at, path, "the string lies outside the buffer or is misaligned");
        const std::uint64_t n = base::loadU32(m_buf.data() + at);
        if (!inside(at + 4, n + 1))
            return problem(at, path, "the string's " + std::to_string(n) + " bytes run past the end of the buffer");
        if (m_buf[at + 4 + n] != 0)
            return problem(at, path, "the string is not NUL-terminated");
        return std::nullopt;
    }

    [[nodiscard]] bool inside(std::uint64_t at, std::uint64_t n) const
    {
        return at <= m_buf.size() && n <= m_buf.size() - at;
    }
    [[nodiscard]] std::uint16_t load16(std::uint64_t at) const
    {
        return std::uint16_t(m_buf[at] | (std::uint16_t(m_buf[at + 1]) << 8));
    }
    static std::optional<WalkProblem> problem(std::uint64_t at, const std::string& path, std::string what)
    {
        return WalkProblem { at, path, std::move(what) };
    }

    std::span<const std::uint8_t> m_buf;
    std::uint32_t m_maxDepth;
};

} // namespace

std::optional<WalkProblem> walkFlatbuffer(
    std::span<const std::uint8_t> buffer, std::size_t rootOffset, const WalkTable& root, std::uint32_t maxDepth)
{
    if (rootOffset > buffer.size() || buffer.size() - rootOffset < 8)
        return WalkProblem { rootOffset, {}, "the buffer is too short for a root offset and identifier" };
    const std::uint64_t target = rootOffset + base::loadU32(buffer.data() + rootOffset);
    return Walker(buffer, maxDepth).table(target, root, {}, 1);
}

} // namespace pte::etdump
