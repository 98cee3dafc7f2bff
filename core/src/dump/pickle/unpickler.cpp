// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/pickle/unpickler.h"

#include "base/fieldpath.h"
#include "dump/zip/ziparchive.h"

#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

namespace pte::dump {

namespace {

using Kind = PickleValue::Kind;

// Storage classes torch.save names in persistent ids (torch/storage.py legacy typed storages).
const std::map<std::string, ScalarType, std::less<>>& storageClasses()
{
    static const std::map<std::string, ScalarType, std::less<>> m = {
        { "ByteStorage", ScalarType::Byte },
        { "CharStorage", ScalarType::Char },
        { "ShortStorage", ScalarType::Short },
        { "IntStorage", ScalarType::Int },
        { "LongStorage", ScalarType::Long },
        { "HalfStorage", ScalarType::Half },
        { "FloatStorage", ScalarType::Float },
        { "DoubleStorage", ScalarType::Double },
        { "ComplexHalfStorage", ScalarType::ComplexHalf },
        { "ComplexFloatStorage", ScalarType::ComplexFloat },
        { "ComplexDoubleStorage", ScalarType::ComplexDouble },
        { "BoolStorage", ScalarType::Bool },
        { "QInt8Storage", ScalarType::QInt8 },
        { "QUInt8Storage", ScalarType::QUInt8 },
        { "QInt32Storage", ScalarType::QInt32 },
        { "BFloat16Storage", ScalarType::BFloat16 },
        { "QUInt4x2Storage", ScalarType::QUInt4x2 },
        { "QUInt2x4Storage", ScalarType::QUInt2x4 },
        { "UntypedStorage", ScalarType::Byte },
    };
    return m;
}

const char* opName(std::uint8_t op)
{
    switch (op) {
    case 'I':
        return "INT";
    case 'L':
        return "LONG";
    case 'S':
        return "STRING";
    case 'V':
        return "UNICODE";
    case 'P':
        return "PERSID";
    case 'i':
        return "INST";
    case 'o':
        return "OBJ";
    case 0x81:
        return "NEWOBJ";
    case 0x92:
        return "NEWOBJ_EX";
    case 0x82:
    case 0x83:
    case 0x84:
        return "EXT";
    default:
        return nullptr;
    }
}

class Machine
{
public:
    Machine(std::span<const std::uint8_t> data, const std::string& source, const UnpickleOptions& options)
        : m_data(data)
        , m_source(source)
        , m_options(options)
        , m_arena(std::make_shared<std::vector<std::unique_ptr<PickleValue>>>())
    { }

    Result<Unpickled> run()
    {
        while (true) {
            if (m_pos >= m_data.size())
                return fail(ErrorCode::Truncated, m_source + ": the pickle ends without a STOP opcode", m_pos);
            m_opPos = m_pos;
            const std::uint8_t op = m_data[m_pos++];
            switch (op) {
            case 0x80: { // PROTO
                PTE_TRY(const auto v, readLe(1));
                if (v > 5)
                    return fail(ErrorCode::Unsupported,
                        m_source + ": pickle protocol " + std::to_string(v) + " is not supported", m_opPos);
                break;
            }
            case 0x95: { // FRAME
                PTE_TRY(const auto v, readLe(8));
                (void)v;
                break;
            }
            case '.': { // STOP
                if (m_stack.empty())
                    return err("STOP with an empty stack");
                Unpickled u;
                u.arena = m_arena;
                u.root = m_stack.back();
                return u;
            }
            case '(':
                m_marks.push_back(m_stack.size());
                break;
            case '0':
                if (!pop())
                    return popError();
                break;
            case '1': {
                PTE_TRY(const auto items, popToMark());
                (void)items;
                break;
            }
            case '2':
                if (m_stack.empty())
                    return err("DUP with an empty stack");
                m_stack.push_back(m_stack.back());
                break;
            case 'N':
                push(make(Kind::None));
                break;
            case 0x88:
            case 0x89: {
                auto* v = make(Kind::Bool);
                v->boolValue = op == 0x88;
                push(v);
                break;
            }
            case 'J': {
                PTE_TRY(const auto v, readLe(4));
                pushInt(static_cast<std::int32_t>(static_cast<std::uint32_t>(v)));
                break;
            }
            case 'K': {
                PTE_TRY(const auto v, readLe(1));
                pushInt(static_cast<std::int64_t>(v));
                break;
            }
            case 'M': {
                PTE_TRY(const auto v, readLe(2));
                pushInt(static_cast<std::int64_t>(v));
                break;
            }
            case 0x8a:
            case 0x8b: { // LONG1, LONG4
                PTE_TRY(const auto n, readLe(op == 0x8a ? 1 : 4));
                if (n > 8)
                    return err("integer of " + std::to_string(n) + " bytes does not fit in 64 bits");
                PTE_TRY(const auto raw, readLe(static_cast<int>(n)));
                std::uint64_t u = raw;
                if (n > 0 && n < 8 && (u >> (n * 8 - 1)) & 1)
                    u |= ~std::uint64_t(0) << (n * 8); // sign-extend
                pushInt(static_cast<std::int64_t>(u));
                break;
            }
            case 'G': { // BINFLOAT, big-endian
                if (m_data.size() - m_pos < 8)
                    return truncated();
                std::uint64_t bits = 0;
                for (int i = 0; i < 8; ++i)
                    bits = (bits << 8) | m_data[m_pos + i];
                m_pos += 8;
                auto* v = make(Kind::Float);
                std::memcpy(&v->floatValue, &bits, 8);
                push(v);
                break;
            }
            case 'X':
            case 0x8c:
            case 0x8d:
            case 'B':
            case 'C':
            case 0x8e: {
                const int lenBytes = (op == 0x8c || op == 'C') ? 1 : (op == 0x8d || op == 0x8e) ? 8 : 4;
                PTE_TRY(const auto n, readLe(lenBytes));
                if (n > m_data.size() - m_pos)
                    return truncated();
                auto* v = make((op == 'B' || op == 'C' || op == 0x8e) ? Kind::BytesValue : Kind::String);
                v->text.assign(reinterpret_cast<const char*>(m_data.data() + m_pos), static_cast<std::size_t>(n));
                m_pos += static_cast<std::size_t>(n);
                push(v);
                break;
            }
            case '}':
                push(make(Kind::Dict));
                break;
            case ']':
                push(make(Kind::List));
                break;
            case ')':
                push(make(Kind::Tuple));
                break;
            case 't': {
                PTE_TRY(auto items, popToMark());
                auto* v = make(Kind::Tuple);
                v->items = std::move(items);
                push(v);
                break;
            }
            case 0x85:
            case 0x86:
            case 0x87: {
                const std::size_t n = op - 0x84u;
                if (m_stack.size() < n + stackFloor())
                    return err("tuple opcode with too few stack items");
                auto* v = make(Kind::Tuple);
                v->items.assign(m_stack.end() - static_cast<std::ptrdiff_t>(n), m_stack.end());
                m_stack.resize(m_stack.size() - n);
                push(v);
                break;
            }
            case 's': {
                if (m_stack.size() < 3 + stackFloor())
                    return err("SETITEM with too few stack items");
                const PickleValue* value = m_stack.back();
                const PickleValue* key = m_stack[m_stack.size() - 2];
                m_stack.resize(m_stack.size() - 2);
                PTE_CHECK(setItems(m_stack.back(), { key, value }));
                break;
            }
            case 'u': {
                PTE_TRY(auto items, popToMark());
                if (items.size() % 2 != 0)
                    return err("SETITEMS with an odd number of items");
                if (m_stack.empty())
                    return err("SETITEMS without a target");
                PTE_CHECK(setItems(m_stack.back(), items));
                break;
            }
            case 'a': {
                if (m_stack.size() < 2 + stackFloor())
                    return err("APPEND with too few stack items");
                const PickleValue* value = m_stack.back();
                m_stack.pop_back();
                PTE_CHECK(append(m_stack.back(), { value }));
                break;
            }
            case 'e': {
                PTE_TRY(auto items, popToMark());
                if (m_stack.empty())
                    return err("APPENDS without a target");
                PTE_CHECK(append(m_stack.back(), items));
                break;
            }
            case 'c': {
                PTE_TRY(const auto module, readLine());
                PTE_TRY(const auto name, readLine());
                PTE_CHECK(pushGlobal(module, name));
                break;
            }
            case 0x93: { // STACK_GLOBAL
                if (m_stack.size() < 2 + stackFloor())
                    return err("STACK_GLOBAL with too few stack items");
                const PickleValue* name = m_stack.back();
                const PickleValue* module = m_stack[m_stack.size() - 2];
                m_stack.resize(m_stack.size() - 2);
                if (name->kind != Kind::String || module->kind != Kind::String)
                    return err("STACK_GLOBAL operands are not strings");
                PTE_CHECK(pushGlobal(module->text, name->text));
                break;
            }
            case 'q':
            case 'r': {
                PTE_TRY(const auto idx, readLe(op == 'q' ? 1 : 4));
                if (m_stack.empty())
                    return err("PUT with an empty stack");
                m_memo[idx] = m_stack.back();
                break;
            }
            case 0x94: // MEMOIZE
                if (m_stack.empty())
                    return err("MEMOIZE with an empty stack");
                m_memo[m_memo.size()] = m_stack.back();
                break;
            case 'h':
            case 'j': {
                PTE_TRY(const auto idx, readLe(op == 'h' ? 1 : 4));
                const auto it = m_memo.find(idx);
                if (it == m_memo.end())
                    return err("GET of memo slot " + std::to_string(idx) + " that was never stored");
                push(it->second);
                break;
            }
            case 'Q': { // BINPERSID
                auto pid = pop();
                if (!pid)
                    return popError();
                PTE_TRY(auto* storage, persistentLoad(*pid));
                push(storage);
                break;
            }
            case 'R': { // REDUCE
                if (m_stack.size() < 2 + stackFloor())
                    return err("REDUCE with too few stack items");
                const PickleValue* args = m_stack.back();
                const PickleValue* callable = m_stack[m_stack.size() - 2];
                m_stack.resize(m_stack.size() - 2);
                PTE_TRY(auto* v, reduce(callable, args));
                push(v);
                break;
            }
            case 0x81: // NEWOBJ: cls.__new__(cls, *args); only an opaque placeholder, never called
                if (!m_options.opaqueObjects)
                    return refusedOpcode(op);
                if (m_stack.size() < 2 + stackFloor())
                    return err("NEWOBJ with too few stack items");
                {
                    const PickleValue* cls = m_stack[m_stack.size() - 2];
                    m_stack.resize(m_stack.size() - 2);
                    push(opaque(cls));
                }
                break;
            case 'b': { // BUILD: state is ignored (OrderedDict _metadata, tensor python attributes)
                if (m_stack.size() < 2 + stackFloor())
                    return err("BUILD with too few stack items");
                m_stack.pop_back();
                break;
            }
            default:
                return refusedOpcode(op);
            }
        }
    }

private:
    Unexpected refusedOpcode(std::uint8_t op) const
    {
        const char* name = opName(op);
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        return fail(ErrorCode::Unsupported,
            m_source + ": pickle opcode " + (name ? std::string(name) + " (" + hex + ")" : std::string(hex))
                + " is not allowed by the restricted unpickler",
            m_opPos);
    }
    /** An uninterpreted object built from `from` (a global, or another opaque value). */
    const PickleValue* opaque(const PickleValue* from)
    {
        auto* v = make(Kind::Opaque);
        v->text = from && (from->kind == Kind::Global || from->kind == Kind::Opaque) ? from->text : "object";
        return v;
    }
    PickleValue* make(Kind k)
    {
        m_arena->push_back(std::make_unique<PickleValue>());
        m_arena->back()->kind = k;
        return m_arena->back().get();
    }
    void push(const PickleValue* v) { m_stack.push_back(v); }
    void pushInt(std::int64_t i)
    {
        auto* v = make(Kind::Int);
        v->intValue = i;
        push(v);
    }
    std::size_t stackFloor() const { return m_marks.empty() ? 0 : m_marks.back(); }
    std::optional<const PickleValue*> pop()
    {
        if (m_stack.size() <= stackFloor())
            return std::nullopt;
        const PickleValue* v = m_stack.back();
        m_stack.pop_back();
        return v;
    }
    Unexpected err(const std::string& what) const
    {
        return fail(ErrorCode::InvalidInput, m_source + ": malformed pickle: " + what, m_opPos);
    }
    Unexpected popError() const { return err("stack underflow"); }
    Unexpected truncated() const
    {
        return fail(ErrorCode::Truncated, m_source + ": the pickle is truncated inside an opcode", m_opPos);
    }
    Result<std::uint64_t> readLe(int n)
    {
        if (m_data.size() - m_pos < static_cast<std::size_t>(n))
            return truncated();
        std::uint64_t v = 0;
        for (int i = n - 1; i >= 0; --i)
            v = (v << 8) | m_data[m_pos + static_cast<std::size_t>(i)];
        m_pos += static_cast<std::size_t>(n);
        return v;
    }
    Result<std::string> readLine()
    {
        const auto* start = m_data.data() + m_pos;
        const auto* nl = static_cast<const std::uint8_t*>(std::memchr(start, '\n', m_data.size() - m_pos));
        if (!nl)
            return truncated();
        std::string s(reinterpret_cast<const char*>(start), static_cast<std::size_t>(nl - start));
        m_pos += s.size() + 1;
        return s;
    }
    Result<std::vector<const PickleValue*>> popToMark()
    {
        if (m_marks.empty())
            return err("no MARK on the stack");
        const std::size_t mark = m_marks.back();
        m_marks.pop_back();
        std::vector<const PickleValue*> items(m_stack.begin() + static_cast<std::ptrdiff_t>(mark), m_stack.end());
        m_stack.resize(mark);
        return items;
    }
    Result<void> setItems(const PickleValue* target, const std::vector<const PickleValue*>& kv)
    {
        if (target->kind != Kind::Dict)
            return err("SETITEM(S) on a value that is not a dict");
        auto* dict = const_cast<PickleValue*>(target); // every value is owned by our arena
        dict->items.insert(dict->items.end(), kv.begin(), kv.end());
        return {};
    }
    Result<void> append(const PickleValue* target, const std::vector<const PickleValue*>& values)
    {
        if (target->kind != Kind::List)
            return err("APPEND(S) on a value that is not a list");
        auto* list = const_cast<PickleValue*>(target);
        list->items.insert(list->items.end(), values.begin(), values.end());
        return {};
    }
    static bool allowedGlobal(const std::string& full)
    {
        static const std::set<std::string, std::less<>> allowed = {
            "torch._utils._rebuild_tensor_v2",
            "torch._utils._rebuild_parameter",
            "torch._utils._rebuild_parameter_with_state",
            "collections.OrderedDict",
            // FakeTensor reducer of torch.export's serializer (older legacy zips) and of ExecuTorch's fork.
            "torch._export.serde.serialize._reconstruct_fake_tensor",
            "executorch.exir.serde.export_serialize._reconstruct_fake_tensor",
            // How pickle protocol 2 spells a bytes object.
            "_codecs.encode",
            "__builtin__.bytes",
            "builtins.bytes",
        };
        return allowed.count(full) > 0;
    }
    Result<void> pushGlobal(const std::string& module, const std::string& name)
    {
        const std::string full = module + "." + name;
        const bool storage = (module == "torch" || module == "torch.storage") && storageClasses().count(name) > 0;
        if (!allowedGlobal(full) && !storage) {
            if (m_options.opaqueObjects) {
                auto* v = make(Kind::Opaque);
                v->text = full;
                push(v);
                return {};
            }
            return fail(ErrorCode::Unsupported,
                m_source + ": refusing to load the pickled global '" + full
                    + "': only torch tensors, storages and OrderedDict are allowed",
                m_opPos);
        }
        auto* v = make(Kind::Global);
        v->text = full;
        if (storage)
            v->dtype = storageClasses().find(name)->second;
        push(v);
        return {};
    }
    Result<PickleValue*> persistentLoad(const PickleValue* pid)
    {
        // ('storage', storage_type, key, location, numel)
        if (pid->kind != Kind::Tuple || pid->items.size() != 5 || pid->items[0]->kind != Kind::String
            || pid->items[0]->text != "storage" || pid->items[1]->kind != Kind::Global
            || pid->items[1]->text.find("Storage") == std::string::npos || pid->items[2]->kind != Kind::String
            || pid->items[4]->kind != Kind::Int)
            return err("persistent id is not ('storage', <storage class>, key, location, numel)");
        auto* s = make(Kind::Storage);
        s->dtype = pid->items[1]->dtype;
        s->text = pid->items[2]->text;
        s->location = pid->items[3]->kind == Kind::String ? pid->items[3]->text : std::string();
        s->numel = pid->items[4]->intValue;
        if (s->numel < 0)
            return err("negative storage size");
        return s;
    }
    /** UTF-8 text whose code points are all below 256 -> those bytes. */
    Result<std::string> latin1(const std::string& utf8) const
    {
        std::string out;
        out.reserve(utf8.size());
        for (std::size_t i = 0; i < utf8.size(); ++i) {
            const auto c = static_cast<unsigned char>(utf8[i]);
            if (c < 0x80) {
                out.push_back(static_cast<char>(c));
            } else if ((c == 0xc2 || c == 0xc3) && i + 1 < utf8.size()
                && (static_cast<unsigned char>(utf8[i + 1]) & 0xc0) == 0x80) {
                out.push_back(static_cast<char>(((c & 0x03) << 6) | (static_cast<unsigned char>(utf8[i + 1]) & 0x3f)));
                ++i;
            } else {
                return err("_codecs.encode argument is not latin-1 text");
            }
        }
        return out;
    }
    static Result<std::vector<std::int64_t>> intTuple(const PickleValue* v)
    {
        std::vector<std::int64_t> out;
        if (v->kind != Kind::Tuple && v->kind != Kind::List)
            return fail(ErrorCode::InvalidInput, "not a tuple of ints");
        for (const auto* i : v->items) {
            if (i->kind != Kind::Int)
                return fail(ErrorCode::InvalidInput, "not a tuple of ints");
            out.push_back(i->intValue);
        }
        return out;
    }
    Result<const PickleValue*> reduce(const PickleValue* callable, const PickleValue* args)
    {
        if (callable->kind == Kind::Opaque)
            return opaque(callable);
        if (callable->kind != Kind::Global)
            return err("REDUCE of a value that is not a callable");
        if (args->kind != Kind::Tuple)
            return err("REDUCE arguments are not a tuple");
        const auto& a = args->items;
        if (callable->text == "_codecs.encode") {
            // bytes under protocol 2: _codecs.encode(<the bytes decoded as latin-1>, 'latin1')
            if (a.size() != 2 || a[0]->kind != Kind::String || a[1]->kind != Kind::String
                || (a[1]->text != "latin1" && a[1]->text != "latin-1"))
                return fail(ErrorCode::Unsupported,
                    m_source + ": refusing to call '_codecs.encode' with anything but (str, 'latin1')", m_opPos);
            auto* v = make(Kind::BytesValue);
            PTE_TRY(v->text, latin1(a[0]->text));
            return v;
        }
        if (callable->text == "__builtin__.bytes" || callable->text == "builtins.bytes") {
            if (!a.empty())
                return fail(ErrorCode::Unsupported, m_source + ": refusing to call 'bytes' with arguments", m_opPos);
            return make(Kind::BytesValue);
        }
        if (callable->text == "torch._export.serde.serialize._reconstruct_fake_tensor"
            || callable->text == "executorch.exir.serde.export_serialize._reconstruct_fake_tensor") {
            if (a.size() != 2 || a[0]->kind != Kind::BytesValue)
                return err("_reconstruct_fake_tensor expects (TensorMeta JSON bytes, is_parameter)");
            auto* t = make(Kind::Tensor);
            t->fake = true;
            t->text = a[0]->text;
            t->isParameter = a[1]->kind == Kind::Bool && a[1]->boolValue;
            return t;
        }
        if (callable->text == "collections.OrderedDict") {
            if (!a.empty())
                return err("OrderedDict called with arguments");
            return make(Kind::Dict);
        }
        if (callable->text == "torch._utils._rebuild_tensor_v2") {
            if (a.size() < 6 || a[0]->kind != Kind::Storage || a[1]->kind != Kind::Int)
                return err("_rebuild_tensor_v2 expects (storage, offset, size, stride, requires_grad, hooks)");
            auto* t = make(Kind::Tensor);
            t->storage = a[0];
            t->dtype = a[0]->dtype;
            t->storageOffset = a[1]->intValue;
            auto sizes = intTuple(a[2]);
            auto strides = intTuple(a[3]);
            if (!sizes || !strides || sizes->size() != strides->size())
                return err("_rebuild_tensor_v2 size/stride are not matching tuples of ints");
            t->sizes = std::move(*sizes);
            t->strides = std::move(*strides);
            t->requiresGrad = a[4]->kind == Kind::Bool && a[4]->boolValue;
            return t;
        }
        if (callable->text == "torch._utils._rebuild_parameter"
            || callable->text == "torch._utils._rebuild_parameter_with_state") {
            if (a.size() < 2 || a[0]->kind != Kind::Tensor)
                return err("_rebuild_parameter expects (tensor, requires_grad, hooks)");
            auto* t = make(Kind::Tensor);
            *t = *a[0];
            t->isParameter = true;
            t->requiresGrad = a[1]->kind == Kind::Bool && a[1]->boolValue;
            return t;
        }
        return fail(
            ErrorCode::Unsupported, m_source + ": refusing to call '" + callable->text + "' while unpickling", m_opPos);
    }

    std::span<const std::uint8_t> m_data;
    const std::string& m_source;
    UnpickleOptions m_options;
    std::size_t m_pos = 0;
    std::size_t m_opPos = 0;
    std::shared_ptr<std::vector<std::unique_ptr<PickleValue>>> m_arena;
    std::vector<const PickleValue*> m_stack;
    std::vector<std::size_t> m_marks;
    std::unordered_map<std::uint64_t, const PickleValue*> m_memo;
};

Result<Bytes> storageData(
    const ZipArchive& zip, const std::string& source, std::map<const PickleValue*, Bytes>& cache, const PickleValue* s)
{
    const auto it = cache.find(s);
    if (it != cache.end())
        return it->second;
    const std::string entryName = zip.rootPath("data/" + s->text);
    const ZipEntry* e = zip.find(entryName);
    if (!e)
        return fail(ErrorCode::InvalidInput,
            source + ": the pickle references storage '" + s->text + "' but entry '" + entryName + "' is missing", {},
            entryName);
    PTE_TRY(Bytes b, zip.read(*e, false));
    const std::size_t es = elementSize(s->dtype);
    if (es == 0 || static_cast<std::uint64_t>(s->numel) > b.size() / es)
        return fail(ErrorCode::Truncated,
            source + ":" + entryName + " holds " + std::to_string(b.size()) + " bytes, fewer than the "
                + std::to_string(s->numel) + " elements the pickle declares",
            {}, entryName);
    cache.emplace(s, b);
    return b;
}

Result<SavedTensor> resolveTensor(const ZipArchive& zip, const std::string& source,
    std::map<const PickleValue*, Bytes>& cache, const PickleValue* v, const std::string& key)
{
    SavedTensor t;
    t.key = key;
    auto& w = t.tensor;
    w.isParameter = v->isParameter;
    if (v->fake) {
        w.fake = true;
        w.source = source + " (fake tensor: no data)";
        t.fakeMetaJson = v->text;
        return t;
    }
    if (!v->storage)
        return fail(ErrorCode::InvalidInput, source + ": tensor '" + key + "' has no storage");
    PTE_TRY(const Bytes storage, storageData(zip, source, cache, v->storage));
    w.meta.dtype = v->dtype;
    w.meta.rawDtype = static_cast<std::int32_t>(v->dtype);
    for (auto s : v->sizes)
        w.meta.sizes.push_back(SymInt { s, {}, {} });
    for (auto s : v->strides)
        w.meta.strides.push_back(SymInt { s, {}, {} });
    w.meta.storageOffset = SymInt { v->storageOffset, {}, {} };
    w.meta.requiresGrad = v->requiresGrad;
    const std::string& loc = v->storage->location;
    const auto colon = loc.find(':');
    w.meta.deviceType = loc.substr(0, colon);
    if (colon != std::string::npos)
        w.meta.deviceIndex = std::atoll(loc.c_str() + colon + 1);
    // Extent of the strided view, in elements, must lie inside the storage.
    std::int64_t extent = 1;
    bool empty = false;
    for (std::size_t i = 0; i < v->sizes.size(); ++i) {
        if (v->sizes[i] < 0 || v->strides[i] < 0)
            return fail(ErrorCode::InvalidInput, source + ": tensor '" + key + "' has a negative size or stride");
        if (v->sizes[i] == 0)
            empty = true;
        else if (v->sizes[i] > (std::int64_t(1) << 40) || v->strides[i] > (std::int64_t(1) << 40))
            return fail(ErrorCode::InvalidInput, source + ": tensor '" + key + "' has an absurd size or stride");
        else
            extent += (v->sizes[i] - 1) * v->strides[i];
    }
    if (v->storageOffset < 0 || (!empty && v->storageOffset + extent > v->storage->numel))
        return fail(ErrorCode::OutOfRange,
            source + ": tensor '" + key + "' reaches past the end of its storage '" + v->storage->text + "'");
    const std::size_t es = elementSize(v->dtype);
    const std::size_t from = static_cast<std::size_t>(v->storageOffset) * es;
    const std::size_t total = static_cast<std::size_t>(v->storage->numel) * es;
    w.data = storage.slice(from, total - std::min(total, from));
    w.source = source + ":" + zip.rootPath("data/" + v->storage->text);
    return t;
}

struct Flattener
{
    TorchSaveReader& reader;
    std::vector<SavedTensor> out;
    std::size_t visits = 0;

    Result<void> visit(const PickleValue* v, const std::string& key, int depth)
    {
        if (depth > 32)
            return fail(ErrorCode::InvalidInput, reader.sourceName() + ": the pickle nests containers too deeply");
        // Memoized containers can be shared many times over (a DAG of depth 32 expands to 2^32 paths).
        if (++visits > (std::size_t(1) << 20))
            return fail(ErrorCode::InvalidInput,
                reader.sourceName() + ": the pickle's containers expand to more than 1048576 values");
        switch (v->kind) {
        case Kind::Dict:
            for (std::size_t i = 0; i + 1 < v->items.size(); i += 2) {
                const auto* k = v->items[i];
                const std::string name = k->kind == Kind::String ? k->text
                    : k->kind == Kind::Int                       ? std::to_string(k->intValue)
                                                                 : "[" + std::to_string(i / 2) + "]";
                PTE_CHECK(visit(v->items[i + 1], base::joinPath(key, name), depth + 1));
            }
            return {};
        case Kind::Tuple:
        case Kind::List:
            for (std::size_t i = 0; i < v->items.size(); ++i)
                PTE_CHECK(visit(v->items[i], base::indexPath(key, i), depth + 1));
            return {};
        case Kind::Tensor: {
            PTE_TRY(auto t, reader.tensor(v, key));
            out.push_back(std::move(t));
            return {};
        }
        default:
            return {}; // scalars, strings, None: not weights
        }
    }
};

} // namespace

Result<Unpickled> Unpickler::load(
    std::span<const std::uint8_t> data, const std::string& sourceName, const UnpickleOptions& options)
{
    Machine m(data, sourceName, options);
    return m.run();
}

Result<TorchSaveReader> TorchSaveReader::open(
    const Bytes& zipBytes, const std::string& sourceName, std::uint64_t maxEntrySize, const UnpickleOptions& options)
{
    PTE_TRY(ZipArchive zip, ZipArchive::open(zipBytes, sourceName, maxEntrySize));
    const ZipEntry* pkl = zip.findInRoot("data.pkl");
    if (!pkl)
        return fail(ErrorCode::InvalidInput, sourceName + " is not a torch.save archive (no data.pkl entry)");
    if (const ZipEntry* bo = zip.findInRoot("byteorder")) {
        PTE_TRY(const Bytes order, zip.read(*bo));
        if (order.asStringView() != "little")
            return fail(ErrorCode::Unsupported,
                sourceName + ": byte order '" + std::string(order.asStringView()) + "' is not supported", {}, bo->name);
    }
    PTE_TRY(const Bytes pickle, zip.read(*pkl));
    const std::string pklLabel = sourceName + ":" + pkl->name;
    TorchSaveReader r;
    PTE_TRY(r.m_pickle, Unpickler::load(pickle.span(), pklLabel, options));
    r.m_zip = std::make_shared<const ZipArchive>(std::move(zip));
    r.m_source = sourceName;
    r.m_storages = std::make_shared<std::map<const PickleValue*, Bytes>>();
    return r;
}

Result<SavedTensor> TorchSaveReader::tensor(const PickleValue* value, const std::string& key)
{
    if (!value || value->kind != Kind::Tensor)
        return fail(ErrorCode::InvalidInput, m_source + ": '" + key + "' is not a tensor");
    return resolveTensor(*m_zip, m_source, *m_storages, value, key);
}

Result<std::vector<SavedTensor>> readTorchSave(
    const Bytes& zipBytes, const std::string& sourceName, std::uint64_t maxEntrySize)
{
    PTE_TRY(auto reader, TorchSaveReader::open(zipBytes, sourceName, maxEntrySize));
    Flattener f { reader, {}, 0 };
    PTE_CHECK(f.visit(reader.root(), std::string(), 0));
    return std::move(f.out);
}

} // namespace pte::dump
