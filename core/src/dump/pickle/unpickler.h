// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/bytes.h"
#include "pte/graph.h"
#include "pte/result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace pte::dump {

class ZipArchive;

/**
 * A value produced by the restricted unpickler. Only what torch.save state dicts need:
 * scalars, strings, containers, storages (from persistent ids) and rebuilt tensors.
 */
struct PickleValue
{
    enum class Kind : std::uint8_t
    {
        None,
        Bool,
        Int,
        Float,
        String, ///< str (UTF-8)
        BytesValue, ///< bytes
        Tuple,
        List,
        Dict, ///< `items` holds key, value, key, value, ... in insertion order
        Global, ///< a resolved allow-listed callable: `text` = "module.name"
        Storage, ///< a persistent-id storage: `text` = key, `dtype`, `numel`
        Tensor, ///< a rebuilt tensor: `storage` + `tensor` (or `fake` with the TensorMeta JSON in `text`)
        Mark, ///< internal
        Opaque, ///< UnpickleOptions::opaqueObjects only: an object of a class not interpreted; `text` = its class
    };
    Kind kind = Kind::None;
    bool boolValue = false;
    std::int64_t intValue = 0;
    double floatValue = 0;
    std::string text;
    std::vector<const PickleValue*> items; ///< owned by the Unpickled arena
    ScalarType dtype = ScalarType::Byte; ///< Storage
    std::int64_t numel = 0; ///< Storage: elements
    std::string location; ///< Storage: "cpu", "cuda:0"
    const PickleValue* storage = nullptr; ///< Tensor
    std::int64_t storageOffset = 0; ///< Tensor, in elements
    std::vector<std::int64_t> sizes; ///< Tensor
    std::vector<std::int64_t> strides; ///< Tensor
    bool requiresGrad = false; ///< Tensor
    bool isParameter = false; ///< Tensor
    /** Tensor from _reconstruct_fake_tensor(<TensorMeta JSON>, is_param): no storage, the JSON is in `text`. */
    bool fake = false;
};

struct UnpickleOptions
{
    /**
     * Instead of refusing other globals, represent them (and what REDUCE/NEWOBJ build from them) as
     * PickleValue::Kind::Opaque values. Nothing is ever imported or called either way. Used for sample
     * inputs, where an unknown leaf is reported rather than fatal; weights keep the strict allow-list.
     */
    bool opaqueObjects = false;
};

/** The result of unpickling: all values live in `arena` (cycles are therefore harmless). */
struct Unpickled
{
    std::shared_ptr<std::vector<std::unique_ptr<PickleValue>>> arena;
    const PickleValue* root = nullptr;
};

/**
 * A restricted unpickler (protocols 2-4): it never imports or calls anything. Only the opcodes
 * torch.save emits are accepted, and only these globals: torch._utils._rebuild_tensor_v2,
 * torch._utils._rebuild_parameter(_with_state), collections.OrderedDict, the torch storage classes
 * (torch.<X>Storage, torch.storage.UntypedStorage), the FakeTensor reducer
 * (torch._export.serde.serialize._reconstruct_fake_tensor and ExecuTorch's copy in
 * executorch.exir.serde.export_serialize) and the protocol-2 spelling of bytes (_codecs.encode(str, 'latin1'),
 * builtins.bytes()). Anything else is refused with ErrorCode::Unsupported naming the global (or opcode)
 * and its byte offset, unless UnpickleOptions::opaqueObjects is set.
 */
class Unpickler
{
public:
    /** @param sourceName used in messages ("model.pt2:archive/data.pkl"). */
    [[nodiscard]] static Result<Unpickled> load(
        std::span<const std::uint8_t> data, const std::string& sourceName, const UnpickleOptions& options = {});
};

/** One tensor of a torch.save archive, resolved to its storage bytes. */
struct SavedTensor
{
    std::string key; ///< the dict key (state-dict FQN), or "[i]" for tuple/list items
    WeightTensor tensor; ///< for a fake tensor: `fake` set, no data, `meta` not filled (see fakeMetaJson)
    std::string fakeMetaJson; ///< fake tensors: the embedded serde TensorMeta JSON, for the caller to decode
};

/**
 * An opened torch.save zip: the archive and its unpickled data.pkl. Tensors found in the value tree are
 * resolved to their storage bytes on demand (slices of the archive bytes when the inner entries are stored).
 */
class TorchSaveReader
{
public:
    /**
     * @param zipBytes the torch.save zip; kept alive by the reader and by every tensor slice.
     * @param sourceName "outer.pt2:serialized_state_dict.pt" for messages.
     */
    [[nodiscard]] static Result<TorchSaveReader> open(const Bytes& zipBytes, const std::string& sourceName,
        std::uint64_t maxEntrySize, const UnpickleOptions& options = {});

    [[nodiscard]] const PickleValue* root() const noexcept { return m_pickle.root; }
    [[nodiscard]] const std::string& sourceName() const noexcept { return m_source; }
    /**
     * Resolves a Kind::Tensor value. `key` names it in messages. Checks that the strided view lies inside its
     * storage and the storage inside its entry. Tensors sharing a storage share the same Bytes.
     */
    [[nodiscard]] Result<SavedTensor> tensor(const PickleValue* value, const std::string& key);

private:
    TorchSaveReader() = default;
    std::shared_ptr<const ZipArchive> m_zip;
    Unpickled m_pickle;
    std::string m_source;
    std::shared_ptr<std::map<const PickleValue*, Bytes>> m_storages;
};

/**
 * Reads a torch.save zip (archive/data.pkl + archive/data/<key>) held in `zipBytes` and returns the
 * tensors of its top-level dict (or tuple/list). Tensors sharing a storage share the same Bytes.
 * Storage bytes are slices of `zipBytes` when the inner entries are stored.
 * @param sourceName "outer.pt2:serialized_state_dict.pt" for messages.
 * @returns InvalidInput/Unsupported/Truncated naming the inner entry on malformed or refused input.
 */
[[nodiscard]] Result<std::vector<SavedTensor>> readTorchSave(
    const Bytes& zipBytes, const std::string& sourceName, std::uint64_t maxEntrySize);

} // namespace pte::dump
