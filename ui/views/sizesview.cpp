// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/sizesview.h"

#include "models/sizemodel.h"
#include "models/textfilterproxy.h"
#include "views/viewparts.h"
#include "widgets/sizechart.h"
#include "widgets/tableview.h"

#include <QSplitter>

namespace pte::ui {

SizesView::SizesView(QWidget* parent)
    : DockView(QStringLiteral("Sizes"), QStringLiteral("sizesDock"), Qt::BottomDockWidgetArea, parent)
    , m_model(new SizeModel(this))
    , m_proxy(new TextFilterProxy(this))
{
    m_proxy->setSourceModel(m_model);
    auto* sizesSplit = new QSplitter(Qt::Horizontal, this);
    m_chart = new SizeChart(sizesSplit);
    m_chart->setObjectName(QStringLiteral("sizeChart"));
    m_chart->setModel(m_model);
    m_table = makeTable(sizesSplit, QStringLiteral("sizesView"), m_proxy, QString() /* setContentState() */);
    sizesSplit->addWidget(m_chart);
    sizesSplit->addWidget(m_table);
    // The table's Details column says what each item is (and which blobs are shared): give it the larger part.
    sizesSplit->setStretchFactor(0, 2);
    sizesSplit->setStretchFactor(1, 3);
    setContent(sizesSplit);
}

QWidget* SizesView::focusTarget() const { return m_table; }

void SizesView::setSnapshot(std::shared_ptr<const Snapshot> snapshot)
{
    m_model->setSnapshot(std::move(snapshot));
    autoSize(m_table);
}

void SizesView::setContentState(ContentState state)
{
    m_table->setEmptyText(emptyTextFor(state, QStringLiteral("Nothing to measure")));
}

} // namespace pte::ui
