// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "models/profileproxy.h"

#include "models/profilemodel.h"
#include "models/roles.h"

namespace pte::ui {

ProfileProxy::ProfileProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
}

void ProfileProxy::setProfileModel(ProfileModel* model)
{
    m_model = model;
    setSourceModel(model);
}

} // namespace pte::ui
