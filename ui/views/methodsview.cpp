// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/methodsview.h"

#include "models/methodmodel.h"
#include "models/textfilterproxy.h"
#include "views/viewparts.h"
#include "widgets/tableview.h"

#include <QItemSelectionModel>
#include <QScrollBar>

namespace pte::ui {

MethodsView::MethodsView(QWidget* parent)
    : DockView(QStringLiteral("Methods"), QStringLiteral("methodsDock"), Qt::LeftDockWidgetArea, parent)
    , m_model(new MethodModel(this))
    , m_proxy(new TextFilterProxy(this))
{
    m_proxy->setSourceModel(m_model);
    m_table = makeTable(this, QStringLiteral("methodsView"), m_proxy,
        QStringLiteral("No program open: open a .pte, a .pt2 archive, an exported-program JSON or an ETRecord "
                       "(Ctrl+O), or drop one on the window"));
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    connect(
        m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            if (current.isValid())
                Q_EMIT methodSelected(m_model->methodName(m_proxy->mapToSource(current).row()));
        });
    setContent(m_table);
}

QWidget* MethodsView::focusTarget() const { return m_table; }

void MethodsView::setSnapshot(std::shared_ptr<const Snapshot> snapshot)
{
    m_model->setSnapshot(std::move(snapshot));
    autoSize(m_table);
    // A program of a few methods does not need half the column: the dock grows no taller than its rows, and the
    // Signature dock below gets the rest. Empty, it has room for its text.
    setMaximumHeight(m_model->rowCount() > 0
            ? tableHeight(m_table) + m_table->horizontalScrollBar()->sizeHint().height()
            : QWIDGETSIZE_MAX);
}

void MethodsView::setMethod(std::shared_ptr<const Snapshot> /*snapshot*/, const QString& method)
{
    const int row = m_model->rowOf(method);
    if (row >= 0)
        m_table->setCurrentIndex(m_proxy->mapFromSource(m_model->index(row, 0)));
}

} // namespace pte::ui
