// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "views/dockview.h"

namespace pte::ui {

class SizeChart;
class SizeModel;
class TableView;
class TextFilterProxy;

/** The Sizes dock: what makes the file big, as bars and as a sortable table. */
class SizesView : public DockView
{
    Q_OBJECT
public:
    explicit SizesView(QWidget* parent = nullptr);

    [[nodiscard]] QWidget* focusTarget() const override;
    void setSnapshot(std::shared_ptr<const Snapshot> snapshot) override;
    void setContentState(ContentState state) override;

    [[nodiscard]] TableView* table() const { return m_table; }

private:
    SizeModel* m_model = nullptr;
    TextFilterProxy* m_proxy = nullptr;
    SizeChart* m_chart = nullptr;
    TableView* m_table = nullptr;
};

} // namespace pte::ui
