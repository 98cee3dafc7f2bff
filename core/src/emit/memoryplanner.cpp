// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "emit/memoryplanner.h"

#include "emit/lowering.h"

#include <algorithm>
#include <numeric>

namespace pte::emitcore {

namespace {
struct Allocation
{
    std::size_t request;
    std::uint64_t offset;
};
struct SharedObject
{
    std::uint64_t size = 0;
    std::int64_t first = 0;
    std::int64_t last = 0;
    std::uint64_t offset = 0;
    std::vector<Allocation> allocations;
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

    std::vector<SharedObject> objects;
    std::vector<std::size_t> objectOf(requests.size());
    std::vector<std::uint64_t> localOffset(requests.size());
    for (const std::size_t r : order) {
        const auto& req = requests[r];
        bool placed = false;
        for (std::size_t o = 0; o < objects.size() && !placed; ++o) {
            auto& obj = objects[o];
            if (req.first > obj.last || obj.first > req.last) {
                obj.allocations.push_back({ r, 0 });
                obj.first = std::min(obj.first, req.first);
                obj.last = std::max(obj.last, req.last);
                objectOf[r] = o;
                localOffset[r] = 0;
                placed = true;
                break;
            }
            // Overlapping in time: go above every allocation that is alive at the same time, if it still fits.
            // Scanned newest first, stopping as soon as it cannot fit: keeps long chains linear.
            if (sizes[r] > obj.size)
                continue;
            std::uint64_t top = 0;
            for (auto a = obj.allocations.rbegin(); a != obj.allocations.rend() && top + sizes[r] <= obj.size; ++a) {
                const auto& other = requests[a->request];
                if (other.first <= req.last && other.last >= req.first)
                    top = std::max(top, a->offset + sizes[a->request]);
            }
            if (top + sizes[r] <= obj.size) {
                obj.allocations.push_back({ r, top });
                obj.first = std::min(obj.first, req.first);
                obj.last = std::max(obj.last, req.last);
                objectOf[r] = o;
                localOffset[r] = top;
                placed = true;
            }
        }
        if (!placed) {
            SharedObject obj;
            obj.size = sizes[r];
            obj.first = req.first;
            obj.last = req.last;
            obj.allocations.push_back({ r, 0 });
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
