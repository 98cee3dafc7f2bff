// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "models/profileproxy.h"

namespace pte::ui {

/** The delegate events of one DelegateCall instruction (rows of a ProfileModel), for the Instructions view. */
class InstructionEventsProxy : public ProfileProxy
{
    Q_OBJECT
public:
    explicit InstructionEventsProxy(QObject* parent = nullptr);
    /** Shows the delegate events of (method, chain, instruction); instruction -1 shows none. */
    void setInstruction(const QString& method, int chain, int instruction);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    int m_method = -1; ///< index in the join's methods
    int m_chain = 0;
    int m_instruction = -1;
};

} // namespace pte::ui
