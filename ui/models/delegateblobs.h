// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/program.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <utility>

namespace pte::ui {

/** A processed delegate blob: inline (backend_delegate_data index) or a segment. */
using DelegateBlobKey = std::pair<pte::DataLocation, std::uint32_t>;

/** The key of a delegate's blob. */
[[nodiscard]] inline DelegateBlobKey blobKey(const pte::BackendDelegate& delegate)
{
    return { delegate.processed.location, delegate.processed.index };
}

/**
 * Which methods' delegates use each blob, in method order (a method counted once). A blob with more than one
 * method is shared: ExecuTorch stores identical processed blobs once (e.g. one QNN context for every method of
 * an LLM program).
 */
[[nodiscard]] std::map<DelegateBlobKey, QStringList> delegateBlobUsers(const pte::Program& program);

/** "inline #3" / "segment #0". */
[[nodiscard]] QString blobLocationText(const DelegateBlobKey& key);

} // namespace pte::ui
