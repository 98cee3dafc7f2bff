// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "views/dockview.h"

namespace pte::ui {

class MethodModel;
class TableView;
class TextFilterProxy;

/** The Methods dock: one row per method with its counts and sources; choosing a row shows that method. */
class MethodsView : public DockView
{
    Q_OBJECT
public:
    explicit MethodsView(QWidget* parent = nullptr);

    [[nodiscard]] QWidget* focusTarget() const override;
    void setSnapshot(std::shared_ptr<const Snapshot> snapshot) override;
    /** Makes the method's row current. */
    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method) override;

    [[nodiscard]] TableView* table() const { return m_table; }
    [[nodiscard]] MethodModel* model() const { return m_model; }

Q_SIGNALS:
    /** The user made another row current. */
    void methodSelected(const QString& method);

private:
    MethodModel* m_model = nullptr;
    TextFilterProxy* m_proxy = nullptr;
    TableView* m_table = nullptr;
};

} // namespace pte::ui
