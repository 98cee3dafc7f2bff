// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QSortFilterProxyModel>

namespace pte::ui {

class ProfileModel;

/**
 * A sort/filter proxy over a ProfileModel's rows, sorted on SortRole: what the Profile view's filter and the
 * Instructions view's delegate events share. Subclasses filter through profileModel()'s rows.
 */
class ProfileProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit ProfileProxy(QObject* parent = nullptr);
    /** Sets `model` as the source model; nullptr clears it. */
    void setProfileModel(ProfileModel* model);

protected:
    [[nodiscard]] ProfileModel* profileModel() const { return m_model; }

private:
    ProfileModel* m_model = nullptr;
};

} // namespace pte::ui
