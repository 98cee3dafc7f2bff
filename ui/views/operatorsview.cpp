// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/operatorsview.h"

#include "models/operatormodel.h"
#include "models/textfilterproxy.h"
#include "views/viewparts.h"
#include "widgets/tableview.h"

#include <QLineEdit>
#include <QVBoxLayout>

namespace pte::ui {

OperatorsView::OperatorsView(QWidget* parent)
    : DockView(QStringLiteral("Operators"), QStringLiteral("operatorsDock"), Qt::BottomDockWidgetArea, parent)
    , m_model(new OperatorModel(this))
    , m_proxy(new TextFilterProxy(this))
{
    m_proxy->setSourceModel(m_model);
    auto* ol = new QVBoxLayout(this);
    ol->setContentsMargins(0, 0, 0, 0);
    ol->setSpacing(2);
    m_filter = filterEdit(this, QStringLiteral("operatorTextFilter"), QStringLiteral("Filter operators"));
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &TextFilterProxy::setFilterText);
    ol->addWidget(m_filter);
    m_table = makeTable(this, QStringLiteral("operatorsView"), m_proxy, QString() /* setContentState() */);
    ol->addWidget(m_table, 1);
}

QWidget* OperatorsView::focusTarget() const { return m_table; }

void OperatorsView::setSnapshot(std::shared_ptr<const Snapshot> snapshot)
{
    m_model->setSnapshot(std::move(snapshot));
    autoSize(m_table);
}

void OperatorsView::clearFilters() { m_filter->clear(); }

void OperatorsView::setContentState(ContentState state)
{
    m_table->setEmptyText(emptyTextFor(state, QStringLiteral("No operator matches the filter")));
}

} // namespace pte::ui
