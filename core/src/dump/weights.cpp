// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/dumpreader_p.h"
#include "dump/exportedprogramdecoder.h"

#include <algorithm>

namespace pte::dump {

// ---------------------------------------------------------------------------------------------------------------
// Weights.

Result<void> checkWeightExtent(const WeightTensor& w, const std::string& fqn)
{
    const std::size_t es = elementSize(w.meta.dtype);
    std::uint64_t extent = 1;
    for (std::size_t i = 0; i < w.meta.sizes.size(); ++i) {
        const auto& s = w.meta.sizes[i];
        if (!s.value)
            return {}; // symbolic: cannot check
        if (*s.value == 0)
            return {};
        const std::int64_t stride = i < w.meta.strides.size() && w.meta.strides[i].value ? *w.meta.strides[i].value : 1;
        if (*s.value < 0 || stride < 0 || *s.value > (std::int64_t(1) << 40) || stride > (std::int64_t(1) << 40))
            return fail(ErrorCode::InvalidInput, w.source + ": weight '" + fqn + "' has an invalid size or stride");
        extent += static_cast<std::uint64_t>(*s.value - 1) * static_cast<std::uint64_t>(stride);
    }
    if (extent * es > w.data.size())
        return fail(ErrorCode::Truncated,
            w.source + ": weight '" + fqn + "' needs " + std::to_string(extent * es) + " bytes but the payload has "
                + std::to_string(w.data.size()));
    return {};
}

void computeMissingWeights(ExportedProgram& ep)
{
    ep.missingWeights.clear();
    for (const auto& s : ep.signature.inputSpecs) {
        if (s.kind != InputKind::Parameter && s.kind != InputKind::Buffer && s.kind != InputKind::TensorConstant)
            continue;
        if (!ep.weights.count(s.target))
            ep.missingWeights.push_back(s.target);
    }
}

/** PT2 2.9+ PayloadConfig: {"config": {fqn: {path_name, is_param, use_pickle, tensor_meta}}}. */
Result<void> loadPayloadConfig(const ZipArchive& zip, const ZipEntry& configEntry, const std::string& folder,
    ExportedProgram& ep, Diagnostics& diags, std::uint64_t maxEntrySize)
{
    const std::string label = zip.entryLabel(configEntry);
    PTE_TRY(const Bytes text, zip.read(configEntry));
    PTE_TRY(const json root, parseJsonText(text.asStringView(), label));
    ExportedProgramDecoder dec(label, diags);
    dec.table = DtypeTable::Torch8Current;
    const json& cfg = field(root, "config");
    if (!cfg.is_object())
        return dec.bad("config", "expected an object, found " + describe(cfg));
    for (auto it = cfg.begin(); it != cfg.end(); ++it) {
        const std::string fqn = it.key();
        const std::string p = joinPath("config", fqn);
        const json& meta = field(it.value(), "tensor_meta");
        PTE_TRY(const std::string pathName, dec.toString(field(it.value(), "path_name"), joinPath(p, "path_name")));
        if (meta.is_null())
            continue; // custom/opaque objects: not tensors
        const std::string entryName = zip.rootPath(folder + "/" + pathName);
        const ZipEntry* e = zip.find(entryName);
        if (!e)
            return fail(ErrorCode::InvalidInput,
                label + ": weight '" + fqn + "' refers to entry '" + entryName + "', which is missing", {},
                joinPath(p, "path_name"));
        WeightTensor w;
        PTE_TRY(w.meta, dec.tensorMeta(meta, joinPath(p, "tensor_meta")));
        w.isParameter = field(it.value(), "is_param").is_boolean() && it.value()["is_param"].get<bool>();
        w.source = zip.entryLabel(*e);
        const bool pickled = field(it.value(), "use_pickle").is_boolean() && it.value()["use_pickle"].get<bool>();
        PTE_TRY(const Bytes blob, zip.read(*e, pickled));
        if (pickled) {
            // A torch.save of one tensor. Plain tensors and parameters are read; a tensor subclass pickles other
            // globals, which the restricted unpickler refuses: the weight is then missing, with an error.
            auto refuse = [&](const std::string& why) {
                Diagnostic d;
                d.severity = Severity::Error;
                d.code = ErrorCode::Unsupported;
                d.message = "weight '" + fqn + "' (use_pickle) cannot be read: " + why;
                d.file = zip.entryLabel(*e);
                d.fieldPath = p;
                diags.push_back(std::move(d));
            };
            auto reader = TorchSaveReader::open(blob, zip.entryLabel(*e), maxEntrySize);
            if (!reader) {
                refuse(reader.error().message);
                continue;
            }
            if (reader->root()->kind != PickleValue::Kind::Tensor) {
                refuse("the pickle holds a " + pickleKindName(*reader->root()) + ", not a single tensor");
                continue;
            }
            auto saved = reader->tensor(reader->root(), fqn);
            if (!saved) {
                refuse(saved.error().message);
                continue;
            }
            if (saved->tensor.fake) {
                w.fake = true;
                w.source = saved->tensor.source;
                Diagnostic d;
                d.message = "weight '" + fqn + "' is a fake tensor: the dump has its metadata but no data";
                d.file = zip.entryLabel(*e);
                d.fieldPath = p;
                diags.push_back(std::move(d));
            } else {
                if (saved->tensor.meta.dtype != w.meta.dtype) {
                    refuse(std::string("the pickled tensor is ") + scalarTypeShortName(saved->tensor.meta.dtype)
                        + " but the config says " + scalarTypeShortName(w.meta.dtype));
                    continue;
                }
                w.data = saved->tensor.data;
                w.source = saved->tensor.source;
            }
        } else {
            if (blob.empty()) {
                Diagnostic d;
                d.severity = Severity::Info;
                d.message = "weight '" + fqn + "' has a 0-byte payload (a fake or empty tensor)";
                d.file = zip.entryLabel(*e);
                diags.push_back(std::move(d));
            }
            const std::size_t es = elementSize(w.meta.dtype);
            const std::int64_t off = w.meta.storageOffset.value.value_or(0);
            const std::uint64_t byteOff = static_cast<std::uint64_t>(std::max<std::int64_t>(off, 0)) * es;
            if (byteOff > blob.size())
                return fail(ErrorCode::OutOfRange,
                    label + ": weight '" + fqn + "' storage offset lies past the end of " + entryName, {}, p);
            w.data = blob.slice(static_cast<std::size_t>(byteOff), blob.size() - static_cast<std::size_t>(byteOff));
        }
        if ((!w.data.empty() || !w.meta.sizes.empty()) && !w.fake)
            if (!(blob.empty() && !pickled))
                PTE_CHECK(checkWeightExtent(w, fqn));
        ep.weights.insert_or_assign(fqn, std::move(w));
    }
    return {};
}

Result<void> loadPickledWeights(const ZipArchive& zip, const ZipEntry& e, ExportedProgram& ep,
    std::uint64_t maxEntrySize, bool constants, Diagnostics& diags)
{
    PTE_TRY(const Bytes blob, zip.read(e));
    if (blob.empty())
        return {}; // 0 bytes = none
    PTE_TRY(auto saved, readTorchSave(blob, zip.entryLabel(e), maxEntrySize));
    ExportedProgramDecoder dec = metaDecoder(ep, zip.entryLabel(e), diags);
    for (auto& s : saved) {
        if (s.tensor.fake) {
            auto meta = dec.fakeTensorMeta(s, "", "weight");
            if (!meta)
                continue; // reported; the FQN stays in missingWeights
            s.tensor.meta = std::move(meta).value();
        } else {
            PTE_CHECK(checkWeightExtent(s.tensor, s.key));
        }
        if (constants)
            s.tensor.isParameter = false;
        ep.weights.insert_or_assign(s.key, std::move(s.tensor));
    }
    return {};
}

} // namespace pte::dump
