// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "models/tablemodelbase.h"
#include "pte/delegatepayload.h"

#include <memory>

namespace pte::ui {

struct DelegateInspection;

/**
 * Base of the tables of one delegate's payload (its inner nodes, its values): which delegate of which snapshot is
 * shown. setDelegate() resets the model and calls delegateChanged() inside the reset for what a subclass derives.
 */
class InnerTableModel : public TableModelBase
{
    Q_OBJECT
public:
    using TableModelBase::TableModelBase;

    /** Shows delegate `delegate` (an index into snapshot->delegates->delegates), or nothing for -1. */
    void setDelegate(std::shared_ptr<const Snapshot> snapshot, int delegate);
    /** The shown delegate (index into snapshot->delegates->delegates), or -1. */
    [[nodiscard]] int delegate() const { return m_delegate; }

protected:
    /** Called by setDelegate() inside the model reset, once the new delegate is set. */
    virtual void delegateChanged() { }
    [[nodiscard]] const std::shared_ptr<const Snapshot>& snapshot() const { return m_snapshot; }
    /** The snapshot's delegates (null when there are none). */
    [[nodiscard]] const DelegateInspection* inspection() const { return m_inspection; }
    /** The shown delegate's payload, or null. */
    [[nodiscard]] const pte::DelegatePayload* payload() const { return m_payload; }

private:
    std::shared_ptr<const Snapshot> m_snapshot;
    const DelegateInspection* m_inspection = nullptr;
    const pte::DelegatePayload* m_payload = nullptr;
    int m_delegate = -1;
};

} // namespace pte::ui
