// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/memoryplanner.h"

#include "emit/lowering.h"

#include <algorithm>
#include <numeric>

namespace pte::emitcore {

namespace {

/**
 * The highest end (offset + size) among a shared object's allocations alive at some step of a range: a segment tree
 * over the steps, its nodes made on demand. Adding an allocation raises every step of its lifetime to at least its
 * end. The greedy planner asks it where the allocations overlapping a request end, instead of scanning them all
 * (which made a graph of thousands of decomposed composites take seconds per thousand instructions).
 */
class AllocationTops
{
public:
    explicit AllocationTops(std::int64_t steps)
        : m_last(std::max<std::int64_t>(steps, 1) - 1)
    {
        m_nodes.emplace_back();
    }

    void add(std::int64_t first, std::int64_t last, std::uint64_t end) { raise(0, 0, m_last, first, last, end); }

    [[nodiscard]] std::uint64_t highest(std::int64_t first, std::int64_t last) const
    {
        return query(0, 0, m_last, first, last);
    }

private:
    struct Node
    {
        std::uint64_t highest = 0; ///< over every allocation alive at some step of the node's range
        std::uint64_t whole = 0; ///< over the allocations alive at every step of the node's range
        std::int32_t left = -1;
        std::int32_t right = -1;
    };

    void raise(
        std::int32_t n, std::int64_t lo, std::int64_t hi, std::int64_t first, std::int64_t last, std::uint64_t end)
    {
        m_nodes[std::size_t(n)].highest = std::max(m_nodes[std::size_t(n)].highest, end);
        if (first <= lo && hi <= last) {
            m_nodes[std::size_t(n)].whole = std::max(m_nodes[std::size_t(n)].whole, end);
            return;
        }
        const std::int64_t mid = lo + (hi - lo) / 2;
        if (first <= mid)
            raise(child(n, true), lo, mid, first, last, end);
        if (last > mid)
            raise(child(n, false), mid + 1, hi, first, last, end);
    }

    std::int32_t child(std::int32_t n, bool left)
    {
        std::int32_t c = left ? m_nodes[std::size_t(n)].left : m_nodes[std::size_t(n)].right;
        if (c < 0) {
            c = std::int32_t(m_nodes.size());
            m_nodes.emplace_back(); // may move the nodes: n is re-read below
            (left ? m_nodes[std::size_t(n)].left : m_nodes[std::size_t(n)].right) = c;
        }
        return c;
    }

    [[nodiscard]] std::uint64_t query(
        std::int32_t n, std::int64_t lo, std::int64_t hi, std::int64_t first, std::int64_t last) const
    {
        if (n < 0 || last < lo || hi < first)
            return 0;
        const Node& node = m_nodes[std::size_t(n)];
        if (first <= lo && hi <= last)
            return node.highest;
        const std::int64_t mid = lo + (hi - lo) / 2;
        return std::max(
            { node.whole, query(node.left, lo, mid, first, last), query(node.right, mid + 1, hi, first, last) });
    }

    std::int64_t m_last;
    std::vector<Node> m_nodes;
};

struct SharedObject
{
    std::uint64_t size = 0;
    std::int64_t first = 0;
    std::int64_t last = 0;
    std::uint64_t offset = 0;
    AllocationTops tops;
};

std::uint64_t alignUp(std::uint64_t v, std::uint64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }
} // namespace

PlanResult planGreedy(const std::vector<PlanRequest>& requests, std::uint64_t alignment)
{
    std::vector<std::uint64_t> sizes(requests.size());
    for (std::size_t i = 0; i < requests.size(); ++i)
        sizes[i] = alignUp(requests[i].size, alignment);
    // ExecuTorch inserts into an ascending list (ties after equals) and reverses it: descending size,
    // ties in reverse request order.
    std::vector<std::size_t> order(requests.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sizes[a] < sizes[b]; });
    std::reverse(order.begin(), order.end());

    std::int64_t steps = 0;
    for (const auto& req : requests)
        steps = std::max(steps, req.last + 1);
    std::vector<SharedObject> objects;
    std::vector<std::size_t> objectOf(requests.size());
    std::vector<std::uint64_t> localOffset(requests.size());
    for (const std::size_t r : order) {
        const auto& req = requests[r];
        bool placed = false;
        for (std::size_t o = 0; o < objects.size() && !placed; ++o) {
            auto& obj = objects[o];
            std::uint64_t top = 0;
            if (req.first <= obj.last && obj.first <= req.last) {
                // Overlapping in time: above every allocation alive at the same time, if it still fits.
                if (sizes[r] > obj.size)
                    continue;
                top = obj.tops.highest(req.first, req.last);
                if (top + sizes[r] > obj.size)
                    continue;
            }
            obj.tops.add(req.first, req.last, top + sizes[r]);
            obj.first = std::min(obj.first, req.first);
            obj.last = std::max(obj.last, req.last);
            objectOf[r] = o;
            localOffset[r] = top;
            placed = true;
        }
        if (!placed) {
            SharedObject obj { sizes[r], req.first, req.last, 0, AllocationTops(steps) };
            obj.tops.add(req.first, req.last, sizes[r]);
            objectOf[r] = objects.size();
            localOffset[r] = 0;
            objects.push_back(std::move(obj));
        }
    }
    PlanResult result;
    result.offsets.resize(requests.size());
    std::uint64_t total = 0;
    for (auto& obj : objects) {
        obj.offset = total;
        total += obj.size;
    }
    for (std::size_t r = 0; r < requests.size(); ++r)
        result.offsets[r] = objects[objectOf[r]].offset + localOffset[r];
    result.totalSize = total;
    return result;
}

std::uint64_t planMethodMemory(LoweredMethod& method, std::uint64_t alignment)
{
    std::vector<PlanRequest> requests;
    std::vector<int> refs;
    requests.reserve(method.values.size());
    refs.reserve(method.values.size());
    for (std::size_t i = 0; i < method.values.size(); ++i) {
        const auto& v = method.values[i];
        if (v.isSym || v.storage != LValue::Storage::Planned || v.first < 0 || v.aliasOf >= 0)
            continue;
        requests.push_back({ v.nbytes(), v.first, v.last });
        refs.push_back(int(i));
    }
    const auto result = planGreedy(requests, alignment);
    for (std::size_t k = 0; k < refs.size(); ++k) {
        auto& v = method.values[std::size_t(refs[k])];
        v.offset = result.offsets[k];
        v.planned = true;
    }
    // Views share their base's memory (the base's lifetime already covers theirs).
    for (auto& v : method.values) {
        if (v.aliasOf < 0 || v.storage != LValue::Storage::Planned)
            continue;
        const auto& base = method.values[std::size_t(v.aliasOf)];
        v.offset = base.offset;
        v.planned = base.planned;
    }
    return result.totalSize;
}

} // namespace pte::emitcore
