// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "views/dockview.h"

#include <cstdint>
#include <vector>

class QLineEdit;

namespace pte::ui {

class MemoryPlanWidget;
class TableView;
class TextFilterProxy;
class ValueModel;

/** The Values dock: a filter over the method's values, and the memory plan below. Values are addressed by id. */
class ValuesView : public DockView
{
    Q_OBJECT
public:
    explicit ValuesView(QWidget* parent = nullptr);

    [[nodiscard]] QWidget* focusTarget() const override;
    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method) override;
    void setContentState(ContentState state) override;
    void clearFilters() override;

    [[nodiscard]] TableView* table() const { return m_table; }
    [[nodiscard]] ValueModel* model() const { return m_model; }

    /** Selects these values (those the filter shows), scrolls to the first and highlights them in the plan. */
    void selectValues(const std::vector<std::int32_t>& values);
    /** Makes value `id` current, clearing the filter when it hides it; false when there is no such value. */
    bool revealValue(int id);

private:
    ValueModel* m_model = nullptr;
    TextFilterProxy* m_proxy = nullptr;
    TableView* m_table = nullptr;
    QLineEdit* m_filter = nullptr;
    MemoryPlanWidget* m_memoryPlan = nullptr;
};

} // namespace pte::ui
