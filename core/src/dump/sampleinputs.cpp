// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/dumpreader_p.h"
#include "dump/exportedprogramdecoder.h"

#include <algorithm>
#include <vector>

namespace pte::dump {

namespace {

/** Flattens the unpickled (args, kwargs) of a sample-inputs entry into SampleInput leaves. */
class SampleFlattener
{
public:
    SampleFlattener(TorchSaveReader& reader, const ExportedProgram& ep, Diagnostics& diags)
        : m_reader(reader)
        , m_diags(diags)
        , m_decoder(metaDecoder(ep, reader.sourceName(), diags))
    { }

    SampleInputs run()
    {
        m_out.source = m_reader.sourceName();
        const PickleValue* root = m_reader.root();
        const bool pair = root->kind == PickleValue::Kind::Tuple && root->items.size() == 2
            && (root->items[0]->kind == PickleValue::Kind::Tuple || root->items[0]->kind == PickleValue::Kind::List)
            && (root->items[1]->kind == PickleValue::Kind::Dict || root->items[1]->kind == PickleValue::Kind::None);
        if (!pair) {
            unsupported("inputs", "a " + pickleKindName(*root) + " instead of an (args, kwargs) pair");
            return std::move(m_out);
        }
        const auto& args = root->items[0]->items;
        for (std::size_t i = 0; i < args.size(); ++i)
            visit(args[i], "args[" + std::to_string(i) + "]", 1);
        visitDictItems(root->items[1], "kwargs", 1);
        if (m_unsupported > 16) {
            Diagnostic d;
            d.message = std::to_string(m_unsupported - 16) + " more sample inputs are not read";
            d.file = m_reader.sourceName();
            m_diags.push_back(std::move(d));
        }
        return std::move(m_out);
    }

private:
    void unsupported(const std::string& path, const std::string& what)
    {
        SampleInput leaf;
        leaf.path = path;
        leaf.kind = SampleInput::Kind::Unsupported;
        leaf.text = what;
        m_out.leaves.push_back(std::move(leaf));
        if (++m_unsupported > 16)
            return; // summarized in run()
        Diagnostic d;
        d.message = "sample input " + path + " is " + what + ", which is not read";
        d.file = m_reader.sourceName();
        d.fieldPath = path;
        m_diags.push_back(std::move(d));
    }
    void visitDictItems(const PickleValue* dict, const std::string& path, int depth)
    {
        for (std::size_t i = 0; i + 1 < dict->items.size(); i += 2) {
            const PickleValue* k = dict->items[i];
            std::string sub;
            if (k->kind == PickleValue::Kind::String)
                sub = path + "['" + k->text + "']";
            else if (k->kind == PickleValue::Kind::Int)
                sub = path + "[" + std::to_string(k->intValue) + "]";
            else {
                unsupported(path + "[<" + pickleKindName(*k) + " key>]", "a dict entry with a non-string key");
                continue;
            }
            visit(dict->items[i + 1], sub, depth + 1);
        }
    }
    void visit(const PickleValue* v, const std::string& path, int depth)
    {
        if (m_stopped)
            return;
        if (++m_visits > kMaxVisits) {
            m_stopped = true;
            unsupported(path, "past the first " + std::to_string(kMaxVisits) + " values (the rest is not read either)");
            return;
        }
        if (depth > 32) {
            unsupported(path, "nested too deeply");
            return;
        }
        if (std::find(m_enclosing.begin(), m_enclosing.end(), v) != m_enclosing.end()) {
            unsupported(path, "a reference to a container that encloses it");
            return;
        }
        struct Enclosing
        {
            std::vector<const PickleValue*>& stack;
            Enclosing(std::vector<const PickleValue*>& s, const PickleValue* v)
                : stack(s)
            {
                stack.push_back(v);
            }
            ~Enclosing() { stack.pop_back(); }
        } enclosing(m_enclosing, v);
        SampleInput leaf;
        leaf.path = path;
        using K = PickleValue::Kind;
        switch (v->kind) {
        case K::None:
            leaf.kind = SampleInput::Kind::None;
            break;
        case K::Bool:
            leaf.kind = SampleInput::Kind::Bool;
            leaf.boolValue = v->boolValue;
            break;
        case K::Int:
            leaf.kind = SampleInput::Kind::Int;
            leaf.intValue = v->intValue;
            break;
        case K::Float:
            leaf.kind = SampleInput::Kind::Float;
            leaf.floatValue = v->floatValue;
            break;
        case K::String:
            leaf.kind = SampleInput::Kind::String;
            leaf.text = v->text;
            break;
        case K::Tuple:
        case K::List:
            for (std::size_t i = 0; i < v->items.size(); ++i)
                visit(v->items[i], indexPath(path, i), depth + 1);
            return;
        case K::Dict:
            visitDictItems(v, path, depth);
            return;
        case K::Tensor: {
            auto t = m_reader.tensor(v, path);
            if (!t) {
                unsupported(path, "a tensor that cannot be read (" + t.error().message + ")");
                return;
            }
            if (t->tensor.fake) {
                auto meta = m_decoder.fakeTensorMeta(*t, path, "sample input");
                if (!meta) {
                    SampleInput bad;
                    bad.path = path;
                    bad.kind = SampleInput::Kind::Unsupported;
                    bad.text = "a fake tensor with unreadable metadata";
                    m_out.leaves.push_back(std::move(bad));
                    return;
                }
                t->tensor.meta = std::move(meta).value();
            }
            leaf.kind = SampleInput::Kind::Tensor;
            leaf.tensor = std::move(t->tensor);
            break;
        }
        default:
            unsupported(path, "a " + pickleKindName(*v));
            return;
        }
        m_out.leaves.push_back(std::move(leaf));
    }

    static constexpr std::size_t kMaxVisits = std::size_t(1) << 16;
    TorchSaveReader& m_reader;
    Diagnostics& m_diags;
    ExportedProgramDecoder m_decoder;
    SampleInputs m_out;
    std::vector<const PickleValue*> m_enclosing; ///< containers on the current path (cycles)
    std::size_t m_visits = 0;
    std::size_t m_unsupported = 0;
    bool m_stopped = false;
};

} // namespace

std::string pickleKindName(const PickleValue& v)
{
    using K = PickleValue::Kind;
    switch (v.kind) {
    case K::None:
        return "None";
    case K::Bool:
        return "bool";
    case K::Int:
        return "int";
    case K::Float:
        return "float";
    case K::String:
        return "str";
    case K::BytesValue:
        return "bytes object";
    case K::Tuple:
        return "tuple";
    case K::List:
        return "list";
    case K::Dict:
        return "dict";
    case K::Global:
        return "reference to " + v.text;
    case K::Storage:
        return "bare storage";
    case K::Tensor:
        return "tensor";
    case K::Mark:
        return "mark";
    case K::Opaque:
        return v.text + " object";
    }
    return "value";
}

void loadSampleInputs(
    const ZipArchive& zip, const ZipEntry& e, ExportedProgram& ep, std::uint64_t maxEntrySize, Diagnostics& diags)
{
    auto warnEntry = [&](const std::string& why) {
        Diagnostic d;
        d.message = "the sample inputs cannot be read: " + why;
        d.file = zip.entryLabel(e);
        diags.push_back(std::move(d));
    };
    auto blob = zip.read(e, false);
    if (!blob) {
        warnEntry(blob.error().message);
        return;
    }
    if (blob->empty())
        return;
    UnpickleOptions options;
    options.opaqueObjects = true;
    auto reader = TorchSaveReader::open(*blob, zip.entryLabel(e), maxEntrySize, options);
    if (!reader) {
        warnEntry(reader.error().message);
        return;
    }
    ep.sampleInputs = SampleFlattener(*reader, ep, diags).run();
}

} // namespace pte::dump
