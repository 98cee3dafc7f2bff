// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/profiletable.h"

#include "pte/graphtext.h"
#include "pte/tensortext.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

namespace pte {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/** An InstructionEvent key: raw values as the Inspector groups by them. */
struct GroupKey
{
    std::int32_t instruction = -1;
    std::int64_t chain = 0;
    bool unsignedChain = false; ///< a debug event's chain >= 2^63 (never equal to a profile event's int32 chain)
    std::int32_t idInt = -1;
    std::uint32_t idStr = kEtdumpNoString;
    bool operator==(const GroupKey&) const = default;
};
struct GroupKeyHash
{
    std::size_t operator()(const GroupKey& k) const noexcept
    {
        std::uint64_t h = std::uint64_t(std::uint32_t(k.instruction)) * 0x9E3779B97F4A7C15ull;
        h ^= std::uint64_t(k.chain) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
        h ^= std::uint64_t(std::uint32_t(k.idInt)) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
        h ^= std::uint64_t(k.idStr) + (k.unsignedChain ? 0x165667B19E3779F9ull : 0) + (h << 6) + (h >> 2);
        return std::size_t(h);
    }
};

/** (name or "", instruction or none, int id or none, str id or none), strings canonical (absent == ""). */
struct SubSignature
{
    bool present = false;
    std::uint32_t name = kEtdumpNoString;
    std::int32_t instruction = -1;
    std::int32_t idInt = -1;
    std::uint32_t idStr = kEtdumpNoString;
    bool operator==(const SubSignature&) const = default;
};

struct EventSignature
{
    std::int32_t instruction = -1;
    SubSignature profile;
    SubSignature debug;
    bool operator==(const EventSignature&) const = default;
};
struct EventSignatureHash
{
    std::size_t operator()(const EventSignature& s) const noexcept
    {
        std::uint64_t h = std::uint64_t(std::uint32_t(s.instruction)) * 0x9E3779B97F4A7C15ull;
        auto mix = [&](std::uint64_t v) { h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2); };
        for (const auto* p : { &s.profile, &s.debug }) {
            mix(p->present);
            mix(p->name);
            mix(std::uint32_t(p->instruction));
            mix(std::uint32_t(p->idInt));
            mix(p->idStr);
        }
        return std::size_t(h);
    }
};

/** One signature's events in one run: its profile event and the InstructionEvent group holding its debug events. */
struct SignatureEvents
{
    std::uint32_t profile = kEtdumpNoString; ///< event index, or none
    std::uint32_t group = 0; ///< index into RunSignatures::debugStart
};

struct RunSignatures
{
    /** Kept for the first run of each block only (the others are compared with it, then give theirs back). */
    std::vector<EventSignature> signatures;
    std::vector<SignatureEvents> events;
    std::vector<std::uint32_t> debugStart; ///< per group, then one past the last: its debug events in `debug`
    std::vector<std::uint32_t> debug; ///< every group's debug events, grouped, in order
    std::vector<std::uint32_t> outputs;
    std::uint64_t hash = 0;

    [[nodiscard]] std::span<const std::uint32_t> debugOf(const SignatureEvents& e) const
    {
        return std::span<const std::uint32_t>(debug).subspan(
            debugStart[e.group], debugStart[e.group + 1] - debugStart[e.group]);
    }
};

class Canonical
{
public:
    explicit Canonical(const EtDump& dump)
        : m_dump(dump)
    { }
    /** The id of a string, with "" and absent as the same value. */
    [[nodiscard]] std::uint32_t id(std::uint32_t s) const { return m_dump.string(s).empty() ? kEtdumpNoString : s; }
    /** Equal strings interned twice (not done by the reader) would still compare by id, which is fine. */

    [[nodiscard]] SubSignature of(const EtdumpEvent& e) const
    {
        SubSignature s;
        s.present = true;
        s.name = id(e.name);
        s.instruction = e.instructionId;
        s.idInt = e.delegateDebugIdInt;
        s.idStr = id(e.delegateDebugIdStr);
        return s;
    }

private:
    const EtDump& m_dump;
};

/**
 * Counts keys: a dense table for the common key (an instruction of chain 0 without delegate identifiers), a hash map
 * for the rest. Maps a key to a small integer.
 */
template <typename Key, typename Hash> class KeyIndex
{
public:
    static constexpr std::uint32_t kNone = 0xffffffffu;
    /** The slot of `key` (`denseIndex` >= 0 when the key is a common one), created with `next` when new. */
    std::uint32_t& slot(const Key& key, std::int64_t denseIndex)
    {
        if (denseIndex >= 0 && denseIndex < (std::int64_t(1) << 26)) {
            if (std::size_t(denseIndex) >= m_dense.size())
                m_dense.resize(std::max<std::size_t>(std::size_t(denseIndex) + 1, m_dense.size() * 2), kNone);
            return m_dense[std::size_t(denseIndex)];
        }
        return m_sparse.try_emplace(key, kNone).first->second;
    }

private:
    std::vector<std::uint32_t> m_dense;
    std::unordered_map<Key, std::uint32_t, Hash> m_sparse;
};

/** (instruction, int id, str id): what a signature is made of besides names and the chain. */
struct Triple
{
    std::int32_t instruction;
    std::int32_t idInt;
    std::uint32_t idStr;
    bool operator==(const Triple&) const = default;
};
struct TripleHash
{
    std::size_t operator()(const Triple& t) const noexcept
    {
        return std::size_t((std::uint64_t(std::uint32_t(t.instruction)) * 0x9E3779B97F4A7C15ull)
            ^ (std::uint64_t(std::uint32_t(t.idInt)) * 0xC2B2AE3D27D4EB4Full) ^ (std::uint64_t(t.idStr) << 1));
    }
};

/** The run's signatures and their events; `spare` is storage to reuse for the signatures (a previous run's). */
RunSignatures signaturesOf(
    const EtDump& dump, const EtdumpRun& run, const Canonical& canon, std::vector<EventSignature>&& spare)
{
    constexpr std::uint32_t kNone = 0xffffffffu;
    RunSignatures out;
    out.signatures = std::move(spare);
    out.signatures.clear();
    // 1. The InstructionEvent group of each event, groups in first-seen order.
    std::vector<GroupKey> keys;
    std::vector<std::uint32_t> groupOf(run.eventCount, kNone);
    KeyIndex<GroupKey, GroupKeyHash> groupIndex;
    for (std::uint32_t k = 0; k < run.eventCount; ++k) {
        const std::uint32_t i = run.firstEvent + k;
        const auto& e = dump.events[i];
        if (e.kind != EtdumpEventKind::Profile && e.kind != EtdumpEventKind::Debug)
            continue; // allocation-only events make the Inspector fail; skipped here
        const GroupKey key { e.instructionId, e.chainIndex, e.kind == EtdumpEventKind::Debug && e.chainIndex < 0,
            e.delegateDebugIdInt, e.delegateDebugIdStr };
        const bool common = key.chain == 0 && !key.unsignedChain && key.idInt == -1 && key.idStr == kEtdumpNoString;
        auto& g = groupIndex.slot(key, common ? std::int64_t(key.instruction) : -1);
        if (g == kNone) {
            g = std::uint32_t(keys.size());
            keys.push_back(key);
        }
        if (e.kind == EtdumpEventKind::Debug)
            if (const auto* v = dump.value(e); v && v->output) {
                out.outputs.push_back(i); // a run output, not part of its group
                continue;
            }
        groupOf[k] = g;
    }
    // 2. Each group's profile and debug events, in order (flat arrays).
    const std::size_t n = keys.size();
    std::vector<std::uint32_t> profileStart(n + 1, 0);
    auto& debugStart = out.debugStart;
    debugStart.assign(n + 1, 0);
    for (std::uint32_t k = 0; k < run.eventCount; ++k)
        if (groupOf[k] != kNone)
            ++(dump.events[run.firstEvent + k].kind == EtdumpEventKind::Profile ? profileStart
                                                                                : debugStart)[groupOf[k] + 1];
    for (std::size_t g = 0; g < n; ++g) {
        profileStart[g + 1] += profileStart[g];
        debugStart[g + 1] += debugStart[g];
    }
    std::vector<std::uint32_t> profiles(profileStart[n]);
    auto& debugs = out.debug;
    debugs.resize(debugStart[n]);
    {
        auto pFill = profileStart;
        auto dFill = debugStart;
        for (std::uint32_t k = 0; k < run.eventCount; ++k) {
            const auto g = groupOf[k];
            if (g == kNone)
                continue;
            if (dump.events[run.firstEvent + k].kind == EtdumpEventKind::Profile)
                profiles[pFill[g]++] = run.firstEvent + k;
            else
                debugs[dFill[g]++] = run.firstEvent + k;
        }
    }
    // 3. Groups whose signatures can equal another group's: those sharing (instruction, ids), e.g. over chains.
    std::vector<bool> shared(n, false);
    {
        KeyIndex<Triple, TripleHash> tripleIndex;
        std::vector<std::uint32_t> first(n);
        for (std::size_t g = 0; g < n; ++g) {
            const Triple t { keys[g].instruction, keys[g].idInt, keys[g].idStr };
            const bool common = t.idInt == -1 && t.idStr == kEtdumpNoString;
            auto& slot = tripleIndex.slot(t, common ? std::int64_t(t.instruction) : -1);
            if (slot == kNone) {
                slot = std::uint32_t(g);
            } else {
                shared[g] = true;
                shared[slot] = true;
            }
        }
    }
    // 4. Signatures in group order; a repeated one keeps its first position and takes the last events.
    std::unordered_map<EventSignature, std::size_t, EventSignatureHash> sharedPosition;
    out.signatures.reserve(profiles.size() + n);
    out.events.reserve(profiles.size() + n);
    for (std::size_t g = 0; g < n; ++g) {
        const bool hasDebug = debugStart[g] != debugStart[g + 1];
        if (profileStart[g] == profileStart[g + 1] && !hasDebug)
            continue;
        SubSignature debugSig;
        if (hasDebug)
            debugSig = canon.of(dump.events[debugs[debugStart[g]]]);
        const std::size_t groupFirst = out.signatures.size();
        auto add = [&](const EventSignature& sig, std::uint32_t profile) {
            std::size_t at = kNone;
            if (shared[g]) {
                const auto [it, inserted] = sharedPosition.try_emplace(sig, out.signatures.size());
                if (!inserted)
                    at = it->second;
            } else {
                for (std::size_t s = groupFirst; s < out.signatures.size(); ++s)
                    if (out.signatures[s] == sig) {
                        at = s;
                        break;
                    }
            }
            if (at == kNone) {
                out.signatures.push_back(sig);
                out.events.push_back(SignatureEvents { profile, std::uint32_t(g) });
            } else {
                out.events[at] = SignatureEvents { profile, std::uint32_t(g) }; // the last occurrence wins
            }
        };
        if (profileStart[g] == profileStart[g + 1]) {
            add(EventSignature { keys[g].instruction, {}, debugSig }, kEtdumpNoString);
            continue;
        }
        for (std::uint32_t p = profileStart[g]; p < profileStart[g + 1]; ++p)
            add(EventSignature { keys[g].instruction, canon.of(dump.events[profiles[p]]), debugSig }, profiles[p]);
    }
    EventSignatureHash hasher;
    std::uint64_t h = std::hash<std::string>()(run.name) ^ std::uint64_t(std::uint32_t(run.bundledInputIndex));
    for (const auto& s : out.signatures)
        h = h * 0x100000001B3ull ^ hasher(s);
    out.hash = h;
    return out;
}

double units(TimeScale s)
{
    switch (s) {
    case TimeScale::Ns:
        return 1e9;
    case TimeScale::Us:
        return 1e6;
    case TimeScale::Ms:
        return 1e3;
    case TimeScale::S:
    case TimeScale::Cycles:
        return 1;
    }
    return 1;
}

/** The Inspector's elapsed time: end - start, or a wrapped 32-bit counter; nullopt when it cannot be. */
template <typename T> std::optional<T> elapsed(T start, T end)
{
    if (start <= end)
        return end - start;
    constexpr T limit = T(4294967295ull);
    if (start <= limit && end <= limit)
        return (limit - start) + end;
    return std::nullopt;
}

/** The numpy pairwise sum of a contiguous float64 run. */
double pairwiseSum(const double* a, std::size_t n)
{
    if (n < 8) {
        double res = 0.;
        for (std::size_t i = 0; i < n; ++i)
            res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        for (std::size_t j = 0; j < 8; ++j)
            r[j] = a[j];
        std::size_t i = 8;
        for (; i < n - (n % 8); i += 8)
            for (std::size_t j = 0; j < 8; ++j)
                r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i)
            res += a[i];
        return res;
    }
    std::size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwiseSum(a, n2) + pairwiseSum(a + n2, n - n2);
}

std::string pyString(std::string_view s)
{
    // Python's repr of str: single quotes unless the text has a single quote and no double quote.
    const bool useDouble = s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos;
    const char q = useDouble ? '"' : '\'';
    std::string out(1, q);
    for (const char c : s) {
        switch (c) {
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (c == q)
                out += '\\';
            out += c;
        }
    }
    out += q;
    return out;
}

std::string pyStringList(const std::vector<std::string>& items)
{
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i ? ", " : "") + pyString(items[i]);
    return out + "]";
}

std::string pyDict(const std::vector<std::pair<std::string, std::string>>& items)
{
    std::string out = "{";
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i ? ", " : "") + pyString(items[i].first) + ": " + pyString(items[i].second);
    return out + "}";
}

std::string describeValue(const EtDump& dump, const EtdumpValue& v)
{
    auto tensor = [](const EtdumpTensor& t) { return "tensor(" + tensorTypeText(t.scalarType, t.sizes) + ")"; };
    (void)dump;
    switch (v.type) {
    case EtdumpValueType::Tensor:
        return v.tensors.empty() ? std::string("None") : tensor(v.tensors.front());
    case EtdumpValueType::TensorList: {
        std::string s = "[";
        for (std::size_t i = 0; i < v.tensors.size(); ++i)
            s += (i ? ", " : "") + tensor(v.tensors[i]);
        return s + "]";
    }
    case EtdumpValueType::Int:
        return std::to_string(v.intValue);
    case EtdumpValueType::Bool:
        return v.boolValue ? "True" : "False";
    case EtdumpValueType::Float:
    case EtdumpValueType::Double:
        return pythonFloatRepr(v.doubleValue);
    case EtdumpValueType::String:
        return pyString(v.stringValue);
    case EtdumpValueType::Null:
        break;
    }
    return "None";
}

std::string csvQuote(const std::string& cell)
{
    if (cell.find_first_of(",\"\n\r") == std::string::npos)
        return cell;
    std::string out = "\"";
    for (const char c : cell) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + "\"";
}

/** "Convolution (NHWC, F32) IGEMM #3" -> "Convolution (NHWC, F32) IGEMM". */
std::string withoutOrdinal(const std::string& name)
{
    const auto hash = name.rfind(" #");
    if (hash == std::string::npos || hash + 2 >= name.size())
        return name;
    for (std::size_t i = hash + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9')
            return name;
    return name.substr(0, hash);
}

void addTo(std::vector<ProfileSummaryEntry>& entries, std::map<std::string, std::size_t>& index, const std::string& key,
    double value)
{
    auto [it, inserted] = index.try_emplace(key, entries.size());
    if (inserted)
        entries.push_back(ProfileSummaryEntry { key, 0, 0, 0 });
    auto& e = entries[it->second];
    ++e.count;
    if (!std::isnan(value))
        e.total += value;
}

/** numpy.percentile with linear interpolation of samples already sorted, without NaN. */
double sortedPercentile(const std::vector<double>& samples, double q)
{
    const double virtualIndex = double(samples.size() - 1) * (q / 100.0);
    const double lower = std::floor(virtualIndex);
    const auto lo = std::min(std::size_t(lower), samples.size() - 1);
    const auto hi = std::min(lo + 1, samples.size() - 1);
    const double t = virtualIndex - lower;
    const double a = samples[lo];
    const double b = samples[hi];
    const double diff = b - a;
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

} // namespace

const char* timeScaleName(TimeScale scale) noexcept
{
    switch (scale) {
    case TimeScale::Ns:
        return "ns";
    case TimeScale::Us:
        return "us";
    case TimeScale::Ms:
        return "ms";
    case TimeScale::S:
        return "s";
    case TimeScale::Cycles:
        return "cycles";
    }
    return "?";
}

std::optional<TimeScale> parseTimeScale(std::string_view text) noexcept
{
    for (const auto s : { TimeScale::Ns, TimeScale::Us, TimeScale::Ms, TimeScale::S, TimeScale::Cycles })
        if (text == timeScaleName(s))
            return s;
    return std::nullopt;
}

std::string ProfileRow::delegateIdentifier() const
{
    if (delegateIdInt)
        return std::to_string(*delegateIdInt);
    return delegateIdStr.value_or(std::string());
}

std::optional<double> eventDuration(const EtdumpEvent& e, const ProfileOptions& options)
{
    if (e.kind != EtdumpEventKind::Profile)
        return std::nullopt;
    const double factor = units(options.source) / units(options.target);
    if (e.isDelegateEvent())
        return elapsed(double(e.startTime) / factor, double(e.endTime) / factor);
    const auto t = elapsed(e.startTime, e.endTime);
    if (!t)
        return std::nullopt;
    return double(*t) / factor;
}

double numpyPercentile(std::vector<double> samples, double q)
{
    if (samples.empty())
        return kNaN;
    for (const double s : samples)
        if (std::isnan(s))
            return kNaN;
    std::sort(samples.begin(), samples.end());
    return sortedPercentile(samples, q);
}

double numpyMean(const std::vector<double>& samples)
{
    if (samples.empty())
        return kNaN;
    return pairwiseSum(samples.data(), samples.size()) / double(samples.size());
}

std::string pythonFloatRepr(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    if (value == 0)
        return std::signbit(value) ? "-0.0" : "0.0";
    // Shortest round-trip digits and the decimal exponent, then Python's layout rule.
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    std::string sci(buf, r.ptr);
    std::string sign;
    if (sci.front() == '-') {
        sign = "-";
        sci.erase(0, 1);
    }
    const auto e = sci.find('e');
    std::string digits = sci.substr(0, e);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    const int exp = std::stoi(sci.substr(e + 1));
    if (exp < -4 || exp >= 16) {
        std::string mant = digits.substr(0, 1);
        if (digits.size() > 1)
            mant += "." + digits.substr(1);
        const int ax = std::abs(exp);
        return sign + mant + "e" + (exp < 0 ? "-" : "+") + (ax < 10 ? "0" : "") + std::to_string(ax);
    }
    std::string out;
    if (exp < 0) {
        out = "0." + std::string(std::size_t(-exp - 1), '0') + digits;
    } else if (std::size_t(exp) + 1 >= digits.size()) {
        out = digits + std::string(std::size_t(exp) + 1 - digits.size(), '0') + ".0";
    } else {
        out = digits.substr(0, std::size_t(exp) + 1) + "." + digits.substr(std::size_t(exp) + 1);
    }
    return sign + out;
}

Result<ProfileTable> buildProfileTable(const EtDump& dump, const EtdumpJoin* join, const ProfileOptions& options)
{
    if ((options.source == TimeScale::Cycles) != (options.target == TimeScale::Cycles))
        return fail(ErrorCode::InvalidInput,
            std::string("cannot convert between cycles and time units (") + timeScaleName(options.source) + " to "
                + timeScaleName(options.target) + ")");
    ProfileTable table;
    table.options = options;
    const Canonical canon(dump);

    // Merge runs with identical signatures into blocks, in first-appearance order.
    std::vector<RunSignatures> perRun;
    perRun.reserve(dump.runs.size());
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> byHash; // hash -> block indices
    std::vector<std::uint32_t> blockFirstRun;
    std::vector<EventSignature> spare; // the signatures of a run that joined a block, reused for the next run
    for (std::uint32_t r = 0; r < dump.runs.size(); ++r) {
        const auto& run = dump.runs[r];
        if (!run.hasEvents) {
            perRun.emplace_back();
            continue;
        }
        perRun.push_back(signaturesOf(dump, run, canon, std::move(spare)));
        spare = {};
        auto& sig = perRun.back();
        std::int64_t found = -1;
        for (const auto b : byHash[sig.hash]) {
            const auto& first = dump.runs[blockFirstRun[b]];
            if (first.name == run.name && first.bundledInputIndex == run.bundledInputIndex
                && perRun[blockFirstRun[b]].signatures == sig.signatures) {
                found = b;
                break;
            }
        }
        if (found >= 0) {
            spare = std::move(sig.signatures); // compared; only the block's first run's are read again
            sig.signatures.clear();
        } else {
            found = std::int64_t(table.blocks.size());
            byHash[sig.hash].push_back(std::uint32_t(found));
            blockFirstRun.push_back(r);
            ProfileBlock block;
            block.name = run.name;
            block.bundledInputIndex = run.bundledInputIndex;
            block.outputEvents = sig.outputs;
            table.blocks.push_back(std::move(block));
        }
        table.blocks[std::size_t(found)].runs.push_back(r);
    }

    std::size_t rowCount = 0;
    for (const auto& block : table.blocks)
        rowCount += perRun[block.runs.front()].signatures.size();
    table.rows.reserve(rowCount);
    std::size_t badDurations = 0;
    std::uint32_t firstBad = 0;
    std::vector<double> sorted; // a row's durations, sorted (reused)
    for (std::uint32_t b = 0; b < table.blocks.size(); ++b) {
        auto& block = table.blocks[b];
        block.firstRow = std::uint32_t(table.rows.size());
        const auto& first = perRun[block.runs.front()];
        for (std::size_t s = 0; s < first.signatures.size(); ++s) {
            const auto& sig = first.signatures[s];
            ProfileRow row;
            row.block = b;
            // Identity from the profile part, then again from the debug part.
            auto identity = [&](const SubSignature& part, bool nameOnlyIfDelegated) {
                if (!part.present)
                    return;
                const bool hasInt = part.idInt != -1;
                const bool hasStr = part.idStr != kEtdumpNoString;
                std::optional<std::int32_t> idInt = hasInt ? std::optional<std::int32_t>(part.idInt) : std::nullopt;
                std::optional<std::string> idStr =
                    !hasInt && hasStr ? std::optional<std::string>(std::string(dump.string(part.idStr))) : std::nullopt;
                std::string name = hasInt ? std::to_string(part.idInt)
                    : hasStr              ? std::string(dump.string(part.idStr))
                                          : std::string(dump.string(part.name));
                if (!nameOnlyIfDelegated || !name.empty())
                    row.eventName = name;
                row.delegateIdInt = idInt;
                row.delegateIdStr = idStr;
                row.isDelegatedOp = hasInt || hasStr;
            };
            identity(sig.profile, false);
            identity(sig.debug, true);
            row.raw.reserve(block.runs.size());
            row.profileEvents.reserve(block.runs.size());
            row.startTimes.reserve(block.runs.size());
            for (const auto r : block.runs) {
                const auto& ev = perRun[r].events[s];
                if (ev.profile == kEtdumpNoString)
                    continue;
                const auto& e = dump.events[ev.profile];
                row.profileEvents.push_back(ev.profile);
                row.startTimes.push_back(e.startTime);
                const double d = eventDuration(e, options).value_or(kNaN);
                if (std::isnan(d) && !badDurations++)
                    firstBad = ev.profile;
                row.raw.push_back(d);
            }
            const auto firstDebug = first.debugOf(first.events[s]);
            row.debugEvents.assign(firstDebug.begin(), firstDebug.end());
            if (!row.raw.empty()) {
                // numpyPercentile and min/max of one sorted copy (NaN anywhere makes them all NaN, as there).
                sorted.assign(row.raw.begin(), row.raw.end());
                if (std::any_of(sorted.begin(), sorted.end(), [](double v) { return std::isnan(v); })) {
                    row.p10 = row.p50 = row.p90 = row.min = row.max = kNaN;
                } else {
                    std::sort(sorted.begin(), sorted.end());
                    row.p10 = sortedPercentile(sorted, 10);
                    row.p50 = sortedPercentile(sorted, 50);
                    row.p90 = sortedPercentile(sorted, 90);
                    row.min = sorted.front();
                    row.max = sorted.back();
                }
                row.avg = numpyMean(row.raw);
            } else {
                row.p10 = row.p50 = row.p90 = row.avg = row.min = row.max = kNaN;
            }
            // Where it ran: the first run's event (profile, else its first logged value).
            const std::uint32_t rep = first.events[s].profile != kEtdumpNoString ? first.events[s].profile
                : firstDebug.empty()                                             ? kEtdumpNoString
                                                                                 : firstDebug.front();
            if (rep != kEtdumpNoString) {
                const auto& e = dump.events[rep];
                if (e.inInstruction()) {
                    row.chain = std::int32_t(e.chainIndex);
                    row.instruction = e.instructionId;
                }
                if (join && rep < join->events.size()) {
                    const auto& j = join->events[rep];
                    row.method = j.method;
                    row.mapping = j.mapping;
                    const auto hs = join->handlesOf(j);
                    row.debugHandles.assign(hs.begin(), hs.end());
                    row.nodes = join->nodes(j.method, hs);
                    const auto& src = *join->sources;
                    if (j.method >= 0 && std::size_t(j.method) < src.methods.size()) {
                        const auto& m = src.methods[std::size_t(j.method)];
                        if (m.graph)
                            for (const auto n : row.nodes) {
                                const auto& node = m.graph->graph.nodes[n];
                                row.opTypes.push_back(nodeOpType(node));
                                if (const auto it = node.metadata.find("stack_trace"); it != node.metadata.end())
                                    row.stackTraces.emplace_back(node.name, it->second);
                                if (const auto it = node.metadata.find("nn_module_stack"); it != node.metadata.end())
                                    row.moduleHierarchy.emplace_back(node.name, it->second);
                            }
                        const bool delegateScope = row.eventName == "DELEGATE_CALL" || row.isDelegatedOp;
                        if (delegateScope && j.instruction >= 0) {
                            if (const auto it = m.delegateMap.find(j.instruction); it != m.delegateMap.end())
                                row.delegateBackendName = it->second.name;
                            else if (const auto* in = join->instruction(j))
                                if (const auto* dc = std::get_if<DelegateCall>(&in->args); dc && dc->delegateIndex >= 0
                                    && std::size_t(dc->delegateIndex) < m.plan->delegates.size())
                                    row.delegateBackendName = m.plan->delegates[std::size_t(dc->delegateIndex)].id;
                        }
                    }
                }
            }
            table.rows.push_back(std::move(row));
        }
        block.rowCount = std::uint32_t(table.rows.size()) - block.firstRow;
    }
    if (badDurations) {
        const auto& e = dump.events[firstBad];
        table.diagnostics.push_back(Diagnostic { Severity::Warning, ErrorCode::InvalidInput,
            std::to_string(badDurations) + " profile event(s) end before they start (start "
                + std::to_string(e.startTime) + ", end " + std::to_string(e.endTime)
                + ") and are not 32-bit counter wraps; their times are NaN",
            e.fileOffset, {}, dump.path });
    }
    return table;
}

std::vector<std::string> profileColumns(const ProfileTable& table)
{
    const std::string unit = std::string(" (") + timeScaleName(table.options.target) + ")";
    return { "event_block_name", "event_name", "raw", "p10" + unit, "p50" + unit, "p90" + unit, "avg" + unit,
        "min" + unit, "max" + unit, "op_types", "delegate_debug_identifier", "stack_traces", "module_hierarchy",
        "is_delegated_op", "delegate_backend_name", "debug_data", "start_time" };
}

std::vector<std::string> profileCells(const EtDump& dump, const ProfileTable& table, const ProfileRow& row)
{
    std::vector<std::string> cells;
    cells.push_back(table.blocks[row.block].name);
    cells.push_back(row.eventName);
    std::string raw = "[";
    for (std::size_t i = 0; i < row.raw.size(); ++i)
        raw += (i ? ", " : "") + pythonFloatRepr(row.raw[i]);
    cells.push_back(raw + "]");
    for (const double v : { row.p10, row.p50, row.p90, row.avg, row.min, row.max })
        cells.push_back(row.raw.empty() ? std::string() : pythonFloatRepr(v));
    if (row.opTypes.size() < 5)
        cells.push_back(pyStringList(row.opTypes));
    else
        cells.push_back("[" + pyString(row.opTypes[0]) + ", " + pyString(row.opTypes[1]) + " ... "
            + pyString(row.opTypes.back()) + "] (" + std::to_string(row.opTypes.size()) + " total)");
    cells.push_back(row.delegateIdInt ? std::to_string(*row.delegateIdInt) : row.delegateIdStr.value_or(std::string()));
    cells.push_back(pyDict(row.stackTraces));
    cells.push_back(pyDict(row.moduleHierarchy));
    cells.push_back(row.isDelegatedOp ? "True" : "False");
    cells.push_back(row.delegateBackendName);
    std::string debug;
    if (!row.debugEvents.empty()) {
        debug = "[";
        for (std::size_t i = 0; i < row.debugEvents.size(); ++i) {
            const auto* v = dump.value(dump.events[row.debugEvents[i]]);
            debug += (i ? ", " : "") + (v ? describeValue(dump, *v) : std::string("None"));
        }
        debug += "]";
    }
    cells.push_back(debug);
    std::string starts = "[";
    for (std::size_t i = 0; i < row.startTimes.size(); ++i)
        starts += (i ? ", " : "") + std::to_string(row.startTimes[i]);
    cells.push_back(starts + "]");
    return cells;
}

std::string profileTableText(
    const EtDump& dump, const ProfileTable& table, char separator, const std::vector<std::uint32_t>* rows)
{
    auto line = [&](const std::vector<std::string>& cells) {
        std::string s;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (i)
                s += separator;
            if (separator == ',') {
                s += csvQuote(cells[i]);
            } else {
                for (const char c : cells[i])
                    s += (c == '\t' || c == '\n' || c == '\r') ? ' ' : c;
            }
        }
        return s + "\n";
    };
    std::string out = line(profileColumns(table));
    if (rows) {
        for (const auto r : *rows)
            if (r < table.rows.size())
                out += line(profileCells(dump, table, table.rows[r]));
        return out;
    }
    for (const auto& row : table.rows)
        out += line(profileCells(dump, table, row));
    return out;
}

ProfileSummary summarizeProfile(const EtDump& dump, const ProfileTable& table, const EtdumpJoin* join)
{
    ProfileSummary out;
    std::map<std::string, std::size_t> ops;
    std::map<std::string, std::size_t> backends;
    std::map<std::string, std::size_t> modules;
    const EtdumpSources* src = join ? join->sources.get() : nullptr;
    static const std::string kKernels = "kernels (not delegated)";
    for (const auto& block : table.blocks) {
        const auto rows = std::span<const ProfileRow>(table.rows).subspan(block.firstRow, block.rowCount);
        // Kernel event names by instruction, for operators without a program (gathered when first needed).
        std::map<std::pair<std::int32_t, std::int32_t>, std::string> kernelNames;
        bool haveKernelNames = false;
        auto kernelName = [&](std::int32_t chain, std::int32_t instruction) -> std::string {
            if (!haveKernelNames) {
                for (const auto& row : rows)
                    if (row.eventName.rfind("native_call_", 0) == 0)
                        kernelNames[{ row.chain, row.instruction }] = row.eventName.substr(12);
                haveKernelNames = true;
            }
            const auto it = kernelNames.find({ chain, instruction });
            return it == kernelNames.end() ? std::string() : it->second;
        };
        for (const auto& row : rows) {
            if (!row.hasTimes())
                continue;
            if (row.eventName == "Method::execute") {
                out.executeTotal += row.p50;
                continue;
            }
            const EtdumpMethodSource* m = src && row.method >= 0 && std::size_t(row.method) < src->methods.size()
                ? &src->methods[std::size_t(row.method)]
                : nullptr;
            const bool isOperator = row.eventName == "OPERATOR_CALL";
            const bool isDelegateCall = row.eventName == "DELEGATE_CALL";
            if (row.isDelegatedOp) {
                const std::string backend = row.delegateBackendName.empty() ? "delegate" : row.delegateBackendName;
                addTo(out.byOperator, ops, backend + ": " + withoutOrdinal(row.eventName), row.p50);
                continue;
            }
            if (!isOperator && !isDelegateCall)
                continue;
            if (isOperator) {
                std::string op;
                if (m && m->plan && row.chain >= 0 && std::size_t(row.chain) < m->plan->chains.size()
                    && std::size_t(row.instruction) < m->plan->chains[std::size_t(row.chain)].instructions.size()) {
                    const auto& in = m->plan->chains[std::size_t(row.chain)].instructions[std::size_t(row.instruction)];
                    if (const auto* k = std::get_if<KernelCall>(&in.args);
                        k && k->opIndex >= 0 && std::size_t(k->opIndex) < m->plan->operators.size())
                        op = m->plan->operators[std::size_t(k->opIndex)].qualifiedName();
                }
                if (op.empty())
                    op = kernelName(row.chain, row.instruction);
                addTo(out.byOperator, ops, op.empty() ? std::string("(kernel without a name)") : op, row.p50);
                addTo(out.byBackend, backends, kKernels, row.p50);
            } else {
                addTo(out.byBackend, backends, row.delegateBackendName.empty() ? "delegate" : row.delegateBackendName,
                    row.p50);
            }
            std::string module;
            for (const auto& [node, stack] : row.moduleHierarchy) {
                if (auto paths = nnModulePaths(stack); !paths.empty()) {
                    module = std::move(paths.front()); // the outermost module
                    break;
                }
            }
            if (!row.moduleHierarchy.empty())
                addTo(out.byModule, modules, module.empty() ? std::string("(top level)") : module, row.p50);
        }
    }
    (void)dump;
    for (auto* list : { &out.byOperator, &out.byBackend, &out.byModule }) {
        for (auto& e : *list)
            e.share = out.executeTotal > 0 ? e.total / out.executeTotal : 0;
        std::stable_sort(list->begin(), list->end(),
            [](const ProfileSummaryEntry& a, const ProfileSummaryEntry& b) { return a.total > b.total; });
    }
    return out;
}

} // namespace pte
