// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QSortFilterProxyModel>

namespace pte::ui {

class ProfileModel;

/** The delegate events of one DelegateCall instruction (rows of a ProfileModel), for the Instructions view. */
class InstructionEventsProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit InstructionEventsProxy(QObject* parent = nullptr);
    void setProfileModel(ProfileModel* model);
    /** Shows the delegate events of (method, chain, instruction); instruction -1 shows none. */
    void setInstruction(const QString& method, int chain, int instruction);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    ProfileModel* m_model = nullptr;
    int m_method = -1; ///< index in the join's methods
    int m_chain = 0;
    int m_instruction = -1;
};

} // namespace pte::ui
