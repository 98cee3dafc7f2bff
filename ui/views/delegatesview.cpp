// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/delegatesview.h"

#include "models/delegatemodel.h"
#include "models/nameddatamodel.h"
#include "views/viewparts.h"
#include "widgets/tableview.h"

#include <QItemSelectionModel>
#include <QSplitter>
#include <QTimer>

namespace pte::ui {

DelegatesView::DelegatesView(QWidget* parent)
    : DockView(QStringLiteral("Delegates"), QStringLiteral("delegatesDock"), Qt::BottomDockWidgetArea, parent)
    , m_delegateModel(new DelegateModel(this))
    , m_delegateIdModel(new DelegateDebugIdModel(this))
    , m_namedDataModel(new NamedDataModel(this))
{
    m_delegatesView = makeTable(this, QStringLiteral("delegatesView"), m_delegateModel, QString(), false);
    m_delegateIdsView = makeTable(this, QStringLiteral("delegateIdsView"), m_delegateIdModel,
        QStringLiteral("No delegate debug identifiers in this method"), false);
    m_split = new QSplitter(Qt::Vertical, this);
    m_split->addWidget(captioned(m_split, QStringLiteral("Delegates"), m_delegatesView));
    m_split->addWidget(captioned(m_split, QStringLiteral("Delegate debug identifiers"), m_delegateIdsView));
    m_namedDataView = makeTable(this, QStringLiteral("namedDataView"), m_namedDataModel,
        QStringLiteral("No named data: neither the program nor this method's lowered modules keep any"));
    m_namedDataView->setToolTip(QStringLiteral("Named data: the backends' constants, stored in the .pte (its "
                                               "named_data segments) or in external .ptd files"));
    m_split->addWidget(captioned(m_split, QStringLiteral("Named data"), m_namedDataView));
    m_delegateIdsView->setToolTip(QStringLiteral("Select an identifier to select its graph nodes"));
    connect(m_delegateIdsView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        &DelegatesView::debugIdSelectionChanged);
    setContent(m_split);
}

QWidget* DelegatesView::focusTarget() const { return m_delegatesView; }

void DelegatesView::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    m_delegateModel->setMethod(snapshot, method);
    m_delegateIdModel->setMethod(snapshot, method);
    m_namedDataModel->setMethod(snapshot, method);
    for (auto* v : { m_delegatesView, m_delegateIdsView, m_namedDataView })
        autoSize(v);
    fitPanes();
    // Again once the docks have their final size (the first snapshot arrives before the first layout).
    QTimer::singleShot(0, this, &DelegatesView::fitPanes);
}

void DelegatesView::setContentState(ContentState state)
{
    m_delegatesView->setEmptyText(emptyTextFor(state, QStringLiteral("No delegate calls in this method")));
}

void DelegatesView::fitPanes()
{
    const int caption = captionHeight(this);
    for (auto* v : { m_delegatesView, m_delegateIdsView, m_namedDataView })
        keepOneRowVisible(v);
    m_split->setSizes({ caption + tableHeight(m_delegatesView), caption + tableHeight(m_delegateIdsView),
        caption + tableHeight(m_namedDataView) });
}

} // namespace pte::ui
