// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Matching values and delegates of two methods by the instructions that use them.
#include "diff/matching.h"

#include "diff/hashing.h"
#include "diff/instructionkeys.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <deque>
#include <unordered_map>

namespace pte::diff {

namespace {

struct Vote
{
    std::int32_t a;
    std::int32_t b;
    std::uint32_t weight;
    std::uint32_t order; ///< when it was cast: ties go to the earlier evidence
};

/**
 * Weighted votes for pairs (a, b), summed per pair. Most values get all their votes for one partner, so each a keeps
 * its first partner's sum in place and only votes for other partners are listed apart: memory stays proportional to
 * the values, not to their uses.
 */
class Ballot
{
public:
    Ballot(std::size_t na, std::size_t nb)
        : m_first(na)
        , m_nb(nb)
    { }

    void vote(std::int32_t a, std::int32_t b, std::uint32_t weight)
    {
        Slot& s = m_first[std::size_t(a)];
        const std::uint32_t order = m_cast++;
        if (s.b < 0)
            s = Slot { b, weight, order };
        else if (s.b == b)
            s.weight += weight;
        else
            m_others.push_back(Vote { a, b, weight, order });
    }

    /**
     * Greedy one-to-one assignment: pairs by decreasing summed weight (ties: the pair voted for first), skipping any
     * whose a or b is taken.
     */
    Matching assign()
    {
        Matching m;
        m.aToB.assign(m_first.size(), -1);
        m.bToA.assign(m_nb, -1);
        std::sort(m_others.begin(), m_others.end(),
            [](const Vote& x, const Vote& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
        std::vector<Vote> candidates;
        candidates.reserve(m_first.size() + m_others.size());
        for (std::size_t a = 0; a < m_first.size(); ++a)
            if (m_first[a].b >= 0)
                candidates.push_back(Vote { std::int32_t(a), m_first[a].b, m_first[a].weight, m_first[a].order });
        for (std::size_t v = 0; v < m_others.size();) {
            Vote sum = m_others[v++];
            for (; v < m_others.size() && m_others[v].a == sum.a && m_others[v].b == sum.b; ++v) {
                sum.weight += m_others[v].weight;
                sum.order = std::min(sum.order, m_others[v].order);
            }
            candidates.push_back(sum);
        }
        m_others.clear();
        m_others.shrink_to_fit();
        std::sort(candidates.begin(), candidates.end(), [](const Vote& x, const Vote& y) {
            return x.weight != y.weight ? x.weight > y.weight : x.order < y.order;
        });
        for (const auto& c : candidates)
            if (m.aToB[std::size_t(c.a)] < 0 && m.bToA[std::size_t(c.b)] < 0) {
                m.aToB[std::size_t(c.a)] = c.b;
                m.bToA[std::size_t(c.b)] = c.a;
            }
        return m;
    }

private:
    struct Slot
    {
        std::int32_t b = -1;
        std::uint32_t weight = 0;
        std::uint32_t order = 0;
    };
    std::vector<Slot> m_first;
    std::vector<Vote> m_others;
    std::size_t m_nb;
    std::uint32_t m_cast = 0;
};

template <typename List> const std::vector<std::int32_t>* indexItems(const EValue& v)
{
    const auto* l = std::get_if<List>(&v.val);
    return l ? &l->items : nullptr;
}

class VoteCollector
{
public:
    VoteCollector(const MethodView& a, const MethodView& b)
        : ballot(a.valueCount(), b.valueCount())
        , m_a(a)
        , m_b(b)
    { }

    void add(std::int64_t x, std::int64_t y, std::uint32_t weight)
    {
        const EValue* va = m_a.value(x);
        const EValue* vb = m_b.value(y);
        if (!va || !vb)
            return;
        ballot.vote(std::int32_t(x), std::int32_t(y), weight);
        if (va->kind() != vb->kind())
            return;
        // List items are value indices: the lists' correspondence is theirs.
        if (const auto* ia = std::get_if<IntList>(&va->val)) {
            const auto& ib = std::get<IntList>(vb->val).items;
            for (std::size_t i = 0; i < ia->items.size() && i < ib.size(); ++i)
                addLeaf(ia->items[i], ib[i], weight);
            return;
        }
        const std::vector<std::int32_t>* la = indexItems<TensorList>(*va);
        const std::vector<std::int32_t>* lb = indexItems<TensorList>(*vb);
        if (!la) {
            la = indexItems<OptionalTensorList>(*va);
            lb = indexItems<OptionalTensorList>(*vb);
        }
        if (la && lb)
            for (std::size_t i = 0; i < la->size() && i < lb->size(); ++i)
                addLeaf((*la)[i], (*lb)[i], weight);
    }

    Ballot ballot;

private:
    void addLeaf(std::int64_t x, std::int64_t y, std::uint32_t weight)
    {
        if (m_a.value(x) && m_b.value(y))
            ballot.vote(std::int32_t(x), std::int32_t(y), weight);
    }

    const MethodView& m_a;
    const MethodView& m_b;
};

/** Everything about a value except its index: two values with the same signature are interchangeable. */
std::uint64_t contentSignature(const MethodView& view, std::size_t index)
{
    const EValue& v = *view.value(std::int64_t(index));
    std::uint64_t h = hashCombine(0x77, std::uint64_t(v.kind()));
    auto bits = [](double d) {
        std::uint64_t u;
        std::memcpy(&u, &d, 8);
        return u;
    };
    switch (v.kind()) {
    case ValueKind::Tensor: {
        const Tensor& t = *v.tensor();
        h = hashCombine(h, std::uint64_t(std::uint8_t(t.scalarType)));
        for (const auto s : t.sizes)
            h = hashCombine(h, std::uint64_t(std::int64_t(s)));
        h = hashCombine(h, t.sizes.size());
        for (const auto d : t.dimOrder)
            h = hashCombine(h, d);
        h = hashCombine(h, std::uint64_t(t.shapeDynamism));
        h = hashCombine(h, t.allocationInfo ? t.allocationInfo->memoryId : 0xffffffffu);
        h = hashCombine(h, t.allocationInfo ? t.allocationInfo->offset() : 0);
        h = hashCombine(h, t.dataBufferIdx != 0 ? 1 : 0);
        if (t.extraTensorInfo && t.extraTensorInfo->fullyQualifiedName)
            h = hashCombine(h, hashString(*t.extraTensorInfo->fullyQualifiedName));
        break;
    }
    case ValueKind::Int:
        h = hashCombine(h, std::uint64_t(std::get<Int>(v.val).intVal));
        break;
    case ValueKind::Bool:
        h = hashCombine(h, std::get<Bool>(v.val).boolVal ? 1 : 0);
        break;
    case ValueKind::Double:
        h = hashCombine(h, bits(std::get<Double>(v.val).doubleVal));
        break;
    case ValueKind::String:
        h = hashCombine(h, hashString(std::get<String>(v.val).stringVal));
        break;
    case ValueKind::IntList:
        for (const auto item : std::get<IntList>(v.val).items) {
            const EValue* iv = view.value(item);
            h = hashCombine(h, iv && iv->kind() == ValueKind::Int ? std::uint64_t(std::get<Int>(iv->val).intVal) : 7);
        }
        break;
    case ValueKind::DoubleList:
        for (const auto d : std::get<DoubleList>(v.val).items)
            h = hashCombine(h, bits(d));
        break;
    case ValueKind::BoolList:
        for (const bool d : std::get<BoolList>(v.val).items)
            h = hashCombine(h, d ? 1 : 0);
        break;
    case ValueKind::TensorList:
        h = hashCombine(h, std::get<TensorList>(v.val).items.size());
        break;
    case ValueKind::OptionalTensorList:
        h = hashCombine(h, std::get<OptionalTensorList>(v.val).items.size());
        break;
    default:
        break;
    }
    return h;
}

} // namespace

Matching matchValues(const MethodView& a, const MethodView& b, std::span<const AlignedPair> rows,
    std::span<const std::uint64_t> similarA, std::span<const std::uint64_t> similarB)
{
    VoteCollector votes(a, b);
    std::array<std::int32_t, 2> sa {};
    std::array<std::int32_t, 2> sb {};
    for (const auto& r : rows) {
        if (r.a < 0 || r.b < 0 || similarA[std::size_t(r.a)] != similarB[std::size_t(r.b)])
            continue;
        const auto argsA = a.arguments(std::size_t(r.a), sa);
        const auto argsB = b.arguments(std::size_t(r.b), sb);
        for (std::size_t p = 0; p < argsA.size() && p < argsB.size(); ++p)
            votes.add(argsA[p], argsB[p], 2);
    }
    const auto& pa = a.plan();
    const auto& pb = b.plan();
    for (std::size_t i = 0; i < pa.inputs.size() && i < pb.inputs.size(); ++i)
        votes.add(pa.inputs[i], pb.inputs[i], 1);
    for (std::size_t i = 0; i < pa.outputs.size() && i < pb.outputs.size(); ++i)
        votes.add(pa.outputs[i], pb.outputs[i], 1);
    Matching m = votes.ballot.assign();

    // Leftovers with identical content, in index order.
    std::unordered_map<std::uint64_t, std::deque<std::int32_t>> freeInB;
    for (std::size_t y = 0; y < b.valueCount(); ++y)
        if (m.bToA[y] < 0)
            freeInB[contentSignature(b, y)].push_back(std::int32_t(y));
    if (!freeInB.empty())
        for (std::size_t x = 0; x < a.valueCount(); ++x) {
            if (m.aToB[x] >= 0)
                continue;
            const auto it = freeInB.find(contentSignature(a, x));
            if (it == freeInB.end() || it->second.empty())
                continue;
            const std::int32_t y = it->second.front();
            it->second.pop_front();
            m.aToB[x] = y;
            m.bToA[std::size_t(y)] = std::int32_t(x);
        }
    return m;
}

Matching matchDelegates(const MethodView& a, const MethodView& b, std::span<const AlignedPair> rows)
{
    const std::size_t na = a.plan().delegates.size();
    const std::size_t nb = b.plan().delegates.size();
    Ballot ballot(na, nb);
    for (const auto& r : rows) {
        if (r.a < 0 || r.b < 0)
            continue;
        const std::int32_t da = a.delegateIndex(std::size_t(r.a));
        const std::int32_t db = b.delegateIndex(std::size_t(r.b));
        if (da >= 0 && db >= 0 && std::size_t(da) < na && std::size_t(db) < nb)
            ballot.vote(da, db, 1);
    }
    Matching m = ballot.assign();
    for (std::size_t x = 0; x < na; ++x) {
        if (m.aToB[x] >= 0)
            continue;
        for (std::size_t y = 0; y < nb; ++y)
            if (m.bToA[y] < 0 && a.plan().delegates[x].id == b.plan().delegates[y].id) {
                m.aToB[x] = std::int32_t(y);
                m.bToA[y] = std::int32_t(x);
                break;
            }
    }
    return m;
}

} // namespace pte::diff
