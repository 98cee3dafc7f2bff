// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "views/dockview.h"

class QSplitter;

namespace pte::ui {

class DelegateDebugIdModel;
class DelegateModel;
class NamedDataModel;
class TableView;

/** The Delegates dock: the method's delegate calls, their delegate debug identifiers and the named data. */
class DelegatesView : public DockView
{
    Q_OBJECT
public:
    explicit DelegatesView(QWidget* parent = nullptr);

    [[nodiscard]] QWidget* focusTarget() const override;
    void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method) override;
    void setContentState(ContentState state) override;

    [[nodiscard]] TableView* delegatesTable() const { return m_delegatesView; }
    [[nodiscard]] TableView* debugIdsTable() const { return m_delegateIdsView; }
    [[nodiscard]] DelegateDebugIdModel* debugIdModel() const { return m_delegateIdModel; }

Q_SIGNALS:
    /** The selection of delegate debug identifiers changed. */
    void debugIdSelectionChanged();

private:
    /** Splits the dock by what each table needs. */
    void fitPanes();

    DelegateModel* m_delegateModel = nullptr;
    DelegateDebugIdModel* m_delegateIdModel = nullptr;
    NamedDataModel* m_namedDataModel = nullptr;
    TableView* m_delegatesView = nullptr;
    TableView* m_delegateIdsView = nullptr;
    TableView* m_namedDataView = nullptr;
    QSplitter* m_split = nullptr;
};

} // namespace pte::ui
