// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// alignSequences(): walk two key sequences together, resynchronising after each mismatch with a bounded Myers
// search, or with K-gram anchors when the divergence is large.
#include "diff/sequencealignment.h"

#include "diff/hashing.h"

#include <algorithm>
#include <climits>
#include <unordered_map>

namespace pte::diff {

namespace {

constexpr std::int32_t kUnreached = INT32_MIN;
/** Hunks up to this many cells (A elements x B elements) are paired with the scoring table. */
constexpr std::size_t kMaxHunkCells = std::size_t(1) << 22;
/** Short runs of matches join a hunk only while it stays this small. */
constexpr std::size_t kMaxJoinedCells = std::size_t(1) << 20;

enum Move : std::uint8_t
{
    Start = 0,
    Down = 1, ///< take an element of b (inserted)
    Right = 2, ///< take an element of a (removed)
};

class Aligner
{
public:
    Aligner(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b, const AlignmentOptions& options,
        std::vector<AlignedPair>& out)
        : m_a(a)
        , m_b(b)
        , m_k(std::max<std::size_t>(options.resyncRun, 1))
        , m_maxCost(options.maxLocalCost)
        , m_out(out)
    { }

    /** Aligns a[i, iEnd) with b[j, jEnd). Without anchors (a gap between two anchors) a divergence the local
     *  search cannot bridge becomes removed-then-inserted rows. */
    void run(std::size_t i, std::size_t iEnd, std::size_t j, std::size_t jEnd, bool anchors)
    {
        for (;;) {
            while (i < iEnd && j < jEnd && m_a[i] == m_b[j])
                push(std::int32_t(i++), std::int32_t(j++));
            if (i == iEnd || j == jEnd)
                break;
            if (localResync(i, iEnd, j, jEnd))
                continue;
            std::size_t p = 0;
            std::size_t q = 0;
            if (anchors && findAnchor(i, iEnd, j, jEnd, p, q)) {
                run(i, i + p, j, j + q, false);
                i += p;
                j += q;
                continue;
            }
            break;
        }
        while (i < iEnd)
            push(std::int32_t(i++), -1);
        while (j < jEnd)
            push(-1, std::int32_t(j++));
    }

private:
    void push(std::int32_t x, std::int32_t y) { m_out.push_back(AlignedPair { x, y }); }

    /**
     * Myers' greedy search from the mismatch at (i, j): furthest-reaching paths of cost d = 0, 1, ... until one is
     * followed by m_k equal elements (or reaches both ends). Emits that path's rows and moves (i, j) to where the
     * run begins. V and the chosen moves of every step are kept (d^2 entries) for the trace back.
     */
    bool localResync(std::size_t& i, std::size_t iEnd, std::size_t& j, std::size_t jEnd)
    {
        const auto n = std::int64_t(iEnd - i);
        const auto m = std::int64_t(jEnd - j);
        const auto maxD = std::int64_t(std::min<std::uint64_t>(m_maxCost, std::uint64_t(n + m)));
        for (std::int64_t d = 0; d <= maxD; ++d) {
            const std::size_t base = std::size_t(d * d);
            const std::size_t prevBase = d > 0 ? std::size_t((d - 1) * (d - 1)) : 0;
            if (m_v.size() < base + std::size_t(2 * d + 1)) {
                m_v.resize(base + std::size_t(2 * d + 1));
                m_move.resize(m_v.size());
            }
            for (std::int64_t k = -d; k <= d; k += 2) {
                const std::size_t idx = base + std::size_t(k + d);
                std::int64_t x = 0;
                Move move = Start;
                if (d > 0) {
                    std::int64_t xDown = -1;
                    std::int64_t xRight = -1;
                    if (k + 1 <= d - 1) {
                        const std::int32_t pv = m_v[prevBase + std::size_t(k + 1 + d - 1)];
                        if (pv != kUnreached && pv - k <= m)
                            xDown = pv;
                    }
                    if (k - 1 >= -(d - 1)) {
                        const std::int32_t pv = m_v[prevBase + std::size_t(k - 1 + d - 1)];
                        if (pv != kUnreached && pv + 1 <= n)
                            xRight = pv + 1;
                    }
                    if (xDown < 0 && xRight < 0) {
                        m_v[idx] = kUnreached;
                        continue;
                    }
                    move = xDown >= xRight ? Down : Right;
                    x = std::max(xDown, xRight);
                }
                std::int64_t y = x - k;
                std::size_t runLength = 0;
                while (x < n && y < m && runLength < m_k && m_a[i + std::size_t(x)] == m_b[j + std::size_t(y)]) {
                    ++x;
                    ++y;
                    ++runLength;
                }
                m_v[idx] = std::int32_t(x);
                m_move[idx] = move;
                if (runLength >= m_k || (x == n && y == m)) {
                    const std::int64_t sx = x - std::int64_t(runLength);
                    emitPath(i, j, d, k, sx);
                    i += std::size_t(sx);
                    j += std::size_t(sx - k);
                    return true;
                }
            }
        }
        return false;
    }

    /** Rows of the path that ends (before its last run) at x = `sx` on diagonal k after d edits. */
    void emitPath(std::size_t i, std::size_t j, std::int64_t d, std::int64_t k, std::int64_t sx)
    {
        m_path.clear();
        std::int64_t cx = sx;
        std::int64_t ck = k;
        for (std::int64_t e = d; e >= 1; --e) {
            const std::size_t idx = std::size_t(e * e + ck + e);
            const std::size_t prevBase = std::size_t((e - 1) * (e - 1));
            const bool down = m_move[idx] == Down;
            const std::int64_t pk = down ? ck + 1 : ck - 1;
            const std::int64_t px = m_v[prevBase + std::size_t(pk + e - 1)];
            const std::int64_t after = down ? px : px + 1;
            for (std::int64_t x = cx - 1; x >= after; --x)
                m_path.push_back(
                    AlignedPair { std::int32_t(i + std::size_t(x)), std::int32_t(j + std::size_t(x - ck)) });
            if (down)
                m_path.push_back(AlignedPair { -1, std::int32_t(j + std::size_t(px - pk)) });
            else
                m_path.push_back(AlignedPair { std::int32_t(i + std::size_t(px)), -1 });
            cx = px;
            ck = pk;
        }
        for (std::int64_t x = cx - 1; x >= 0; --x)
            m_path.push_back(AlignedPair { std::int32_t(i + std::size_t(x)), std::int32_t(j + std::size_t(x)) });
        m_out.insert(m_out.end(), m_path.rbegin(), m_path.rend());
    }

    std::uint64_t gram(std::span<const std::uint64_t> s, std::size_t at) const
    {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL;
        for (std::size_t t = 0; t < m_k; ++t)
            h = hashCombine(h, s[at + t]);
        return h;
    }

    /**
     * The nearest (least p + q) place where m_k elements of a[i + p, ...) equal those of b[j + q, ...), looked up
     * by hashing the m_k-grams of b in windows of 4096, 16384, ... elements.
     */
    bool findAnchor(std::size_t i, std::size_t iEnd, std::size_t j, std::size_t jEnd, std::size_t& p, std::size_t& q)
    {
        const std::size_t n = iEnd - i;
        const std::size_t m = jEnd - j;
        if (n < m_k || m < m_k)
            return false;
        const std::size_t gramsA = n - m_k + 1;
        const std::size_t gramsB = m - m_k + 1;
        std::unordered_map<std::uint64_t, std::size_t> firstInB;
        std::size_t hashedB = 0;
        for (std::size_t window = 4096;; window *= 4) {
            const std::size_t wb = std::min(gramsB, window);
            const std::size_t wa = std::min(gramsA, window);
            for (; hashedB < wb; ++hashedB)
                firstInB.try_emplace(gram(m_b, j + hashedB), hashedB);
            std::size_t best = SIZE_MAX;
            for (std::size_t pa = 0; pa < wa && pa < best; ++pa) {
                const auto it = firstInB.find(gram(m_a, i + pa));
                if (it == firstInB.end() || pa + it->second >= best)
                    continue;
                if (std::equal(m_a.begin() + std::ptrdiff_t(i + pa), m_a.begin() + std::ptrdiff_t(i + pa + m_k),
                        m_b.begin() + std::ptrdiff_t(j + it->second))) {
                    best = pa + it->second;
                    p = pa;
                    q = it->second;
                }
            }
            if (best != SIZE_MAX)
                return true;
            if (wa == gramsA && wb == gramsB)
                return false;
        }
    }

    std::span<const std::uint64_t> m_a;
    std::span<const std::uint64_t> m_b;
    std::size_t m_k;
    std::size_t m_maxCost;
    std::vector<AlignedPair>& m_out;
    std::vector<std::int32_t> m_v;
    std::vector<std::uint8_t> m_move;
    std::vector<AlignedPair> m_path;
};

/**
 * Exact alignment by Myers' linear-space algorithm: trim the common prefix and suffix, find where a least-cost path
 * crosses the middle (furthest-reaching paths from both ends until they overlap), split there and recurse. Each
 * middle search is bounded by `maxCost` edits, and all of them together by a work budget proportional to the input;
 * past either, the subproblem is aligned by the local search (Aligner), so time stays near-linear on any input.
 */
class MyersAligner
{
public:
    MyersAligner(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b, Aligner& fallback,
        std::vector<AlignedPair>& out, std::size_t maxCost, std::size_t workPerElement)
        : m_a(a)
        , m_b(b)
        , m_fallback(fallback)
        , m_out(out)
        , m_maxCost(std::int64_t(maxCost))
        , m_budget(std::int64_t(workPerElement * (a.size() + b.size())) + (std::int64_t(1) << 22))
    { }

    void solve(std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1)
    {
        while (a0 < a1 && b0 < b1 && m_a[a0] == m_b[b0])
            m_out.push_back(AlignedPair { std::int32_t(a0++), std::int32_t(b0++) });
        std::size_t suffix = 0;
        while (a1 - suffix > a0 && b1 - suffix > b0 && m_a[a1 - 1 - suffix] == m_b[b1 - 1 - suffix])
            ++suffix;
        const std::size_t ae = a1 - suffix;
        const std::size_t be = b1 - suffix;
        std::size_t x = 0;
        std::size_t y = 0;
        if (a0 == ae || b0 == be) {
            for (std::size_t i = a0; i < ae; ++i)
                m_out.push_back(AlignedPair { std::int32_t(i), -1 });
            for (std::size_t j = b0; j < be; ++j)
                m_out.push_back(AlignedPair { -1, std::int32_t(j) });
        } else if (m_maxCost > 0 && m_budget > 0 && split(a0, ae, b0, be, x, y)) {
            solve(a0, a0 + x, b0, b0 + y);
            solve(a0 + x, ae, b0 + y, be);
        } else {
            m_fallback.run(a0, ae, b0, be, true);
        }
        for (std::size_t t = suffix; t > 0; --t)
            m_out.push_back(AlignedPair { std::int32_t(a1 - t), std::int32_t(b1 - t) });
    }

private:
    /** A point (x, y), relative to (a0, b0), that a least-cost path goes through; false past the bounds. */
    bool split(std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1, std::size_t& sx, std::size_t& sy)
    {
        const auto n = std::int64_t(a1 - a0);
        const auto m = std::int64_t(b1 - b0);
        const std::int64_t delta = n - m;
        const bool odd = (delta & 1) != 0;
        const std::int64_t maxD = std::min((n + m + 1) / 2, m_maxCost);
        const std::int64_t offset = maxD + 1;
        m_forward.assign(std::size_t(2 * offset + 1), -1);
        m_reverse.assign(std::size_t(2 * offset + 1), -1);
        m_forward[std::size_t(offset + 1)] = 0;
        m_reverse[std::size_t(offset + 1)] = 0;
        // Diagonals whose paths left the grid are skipped from then on.
        std::int64_t fStart = 0;
        std::int64_t fEnd = 0;
        std::int64_t rStart = 0;
        std::int64_t rEnd = 0;
        for (std::int64_t d = 0; d <= maxD; ++d) {
            for (std::int64_t k = -d + fStart; k <= d - fEnd; k += 2) {
                const std::size_t ki = std::size_t(offset + k);
                std::int64_t x = (k == -d || (k != d && m_forward[ki - 1] < m_forward[ki + 1])) ? m_forward[ki + 1]
                                                                                                : m_forward[ki - 1] + 1;
                std::int64_t y = x - k;
                while (x < n && y < m && m_a[a0 + std::size_t(x)] == m_b[b0 + std::size_t(y)]) {
                    ++x;
                    ++y;
                }
                m_budget -= x - m_forward[ki] + 1;
                m_forward[ki] = x;
                if (x > n) {
                    fEnd += 2;
                } else if (y > m) {
                    fStart += 2;
                } else if (odd) {
                    const std::int64_t kr = offset + delta - k;
                    if (kr >= 0 && kr < std::int64_t(m_reverse.size()) && m_reverse[std::size_t(kr)] >= 0
                        && x >= n - m_reverse[std::size_t(kr)]) {
                        sx = std::size_t(x);
                        sy = std::size_t(y);
                        return true;
                    }
                }
            }
            for (std::int64_t k = -d + rStart; k <= d - rEnd; k += 2) {
                const std::size_t ki = std::size_t(offset + k);
                std::int64_t x = (k == -d || (k != d && m_reverse[ki - 1] < m_reverse[ki + 1])) ? m_reverse[ki + 1]
                                                                                                : m_reverse[ki - 1] + 1;
                std::int64_t y = x - k;
                while (x < n && y < m && m_a[a1 - 1 - std::size_t(x)] == m_b[b1 - 1 - std::size_t(y)]) {
                    ++x;
                    ++y;
                }
                m_budget -= x - m_reverse[ki] + 1;
                m_reverse[ki] = x;
                if (x > n) {
                    rEnd += 2;
                } else if (y > m) {
                    rStart += 2;
                } else if (!odd) {
                    const std::int64_t kf = offset + delta - k;
                    if (kf >= 0 && kf < std::int64_t(m_forward.size()) && m_forward[std::size_t(kf)] >= 0) {
                        const std::int64_t fx = m_forward[std::size_t(kf)];
                        const std::int64_t fy = fx - (delta - k);
                        if (fx >= n - x) {
                            sx = std::size_t(fx);
                            sy = std::size_t(fy);
                            return true;
                        }
                    }
                }
            }
            if (m_budget <= 0)
                return false;
        }
        return false;
    }

    std::span<const std::uint64_t> m_a;
    std::span<const std::uint64_t> m_b;
    Aligner& m_fallback;
    std::vector<AlignedPair>& m_out;
    std::int64_t m_maxCost;
    std::int64_t m_budget;
    std::vector<std::int64_t> m_forward;
    std::vector<std::int64_t> m_reverse;
};

/** A hunk's elements: the A and B indices it holds, in order. */
struct Hunk
{
    std::vector<std::int32_t> a;
    std::vector<std::int32_t> b;
};

/** The pairs (positions into hunk.a, hunk.b) of a common subsequence of best score. */
std::vector<std::pair<std::size_t, std::size_t>> bestPairs(const Hunk& hunk, std::span<const std::uint64_t> primaryA,
    std::span<const std::uint64_t> primaryB, std::span<const std::uint64_t> similarA,
    std::span<const std::uint64_t> similarB)
{
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    const std::size_t na = hunk.a.size();
    const std::size_t nb = hunk.b.size();
    auto score = [&](std::size_t x, std::size_t y) -> std::uint32_t {
        const auto ia = std::size_t(hunk.a[x]);
        const auto ib = std::size_t(hunk.b[y]);
        if (primaryA[ia] == primaryB[ib])
            return 3;
        return similarA[ia] == similarB[ib] ? 2 : 0;
    };
    if (na * nb > kMaxHunkCells) {
        // Too big for the table: pair similar elements in order, looking a little ahead on the b side.
        std::size_t y = 0;
        for (std::size_t x = 0; x < na && y < nb; ++x)
            for (std::size_t t = y; t < nb && t < y + 64; ++t)
                if (score(x, t) > 0) {
                    pairs.emplace_back(x, t);
                    y = t + 1;
                    break;
                }
        return pairs;
    }
    // best[x][y] = best score of hunk.a[x..] against hunk.b[y..].
    std::vector<std::uint32_t> best((na + 1) * (nb + 1), 0);
    auto at = [&](std::size_t x, std::size_t y) -> std::uint32_t& { return best[x * (nb + 1) + y]; };
    for (std::size_t x = na; x-- > 0;)
        for (std::size_t y = nb; y-- > 0;) {
            const std::uint32_t s = score(x, y);
            at(x, y) = std::max({ s ? at(x + 1, y + 1) + s : 0u, at(x + 1, y), at(x, y + 1) });
        }
    std::size_t x = 0;
    std::size_t y = 0;
    while (x < na && y < nb) {
        const std::uint32_t s = score(x, y);
        if (s && at(x, y) == at(x + 1, y + 1) + s)
            pairs.emplace_back(x++, y++);
        else if (at(x, y) == at(x + 1, y))
            ++x;
        else
            ++y;
    }
    return pairs;
}

} // namespace

std::vector<AlignedPair> alignSequences(
    std::span<const std::uint64_t> a, std::span<const std::uint64_t> b, const AlignmentOptions& options)
{
    std::vector<AlignedPair> out;
    out.reserve(std::max(a.size(), b.size()) + 16);
    Aligner local(a, b, options, out);
    MyersAligner(a, b, local, out, options.maxExactCost, options.exactWorkPerElement).solve(0, a.size(), 0, b.size());
    return out;
}

void refineHunks(std::vector<AlignedPair>& rows, std::span<const std::uint64_t> primaryA,
    std::span<const std::uint64_t> primaryB, std::span<const std::uint64_t> similarA,
    std::span<const std::uint64_t> similarB, std::size_t absorbBelow)
{
    auto oneSided = [&](std::size_t r) { return rows[r].a < 0 || rows[r].b < 0; };
    std::vector<AlignedPair> out;
    out.reserve(rows.size());
    Hunk hunk;
    for (std::size_t r = 0; r < rows.size();) {
        if (!oneSided(r)) {
            out.push_back(rows[r++]);
            continue;
        }
        hunk.a.clear();
        hunk.b.clear();
        std::size_t end = r;
        for (;;) {
            for (; end < rows.size() && oneSided(end); ++end) {
                if (rows[end].a >= 0)
                    hunk.a.push_back(rows[end].a);
                else
                    hunk.b.push_back(rows[end].b);
            }
            // A short run of matches followed by more one-sided rows joins the hunk, if the hunk stays small.
            std::size_t next = end;
            while (next < rows.size() && !oneSided(next) && next - end < absorbBelow)
                ++next;
            if (next == end || next == rows.size() || !oneSided(next)
                || (hunk.a.size() + next - end) * (hunk.b.size() + next - end) > kMaxJoinedCells)
                break;
            for (; end < next; ++end) {
                hunk.a.push_back(rows[end].a);
                hunk.b.push_back(rows[end].b);
            }
        }
        auto pairs = bestPairs(hunk, primaryA, primaryB, similarA, similarB);
        pairs.emplace_back(hunk.a.size(), hunk.b.size()); // sentinel: the end of the hunk
        std::size_t x = 0;
        std::size_t y = 0;
        for (const auto& [px, py] : pairs) {
            // Between two pairs: pair by position, then what is left on one side.
            for (; x < px && y < py; ++x, ++y)
                out.push_back(AlignedPair { hunk.a[x], hunk.b[y] });
            for (; x < px; ++x)
                out.push_back(AlignedPair { hunk.a[x], -1 });
            for (; y < py; ++y)
                out.push_back(AlignedPair { -1, hunk.b[y] });
            if (px < hunk.a.size()) {
                out.push_back(AlignedPair { hunk.a[px], hunk.b[py] });
                x = px + 1;
                y = py + 1;
            }
        }
        r = end;
    }
    rows = std::move(out);
}

} // namespace pte::diff
