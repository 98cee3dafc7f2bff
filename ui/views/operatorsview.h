// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "views/dockview.h"

class QLineEdit;

namespace pte::ui {

class OperatorModel;
class TableView;
class TextFilterProxy;

/** The Operators dock: the program's operators with use counts and portable-kernel coverage, filtered. */
class OperatorsView : public DockView
{
    Q_OBJECT
public:
    explicit OperatorsView(QWidget* parent = nullptr);

    [[nodiscard]] QWidget* focusTarget() const override;
    void setSnapshot(std::shared_ptr<const Snapshot> snapshot) override;
    void setContentState(ContentState state) override;
    void clearFilters() override;

    [[nodiscard]] TableView* table() const { return m_table; }

private:
    OperatorModel* m_model = nullptr;
    TextFilterProxy* m_proxy = nullptr;
    TableView* m_table = nullptr;
    QLineEdit* m_filter = nullptr;
};

} // namespace pte::ui
