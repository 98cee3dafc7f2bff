// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/valuesview.h"

#include "models/memoryplan.h"
#include "models/textfilterproxy.h"
#include "models/valuemodel.h"
#include "views/viewparts.h"
#include "widgets/memoryplanwidget.h"
#include "widgets/tableview.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSplitter>
#include <QVBoxLayout>

namespace pte::ui {

ValuesView::ValuesView(QWidget* parent)
    : DockView(QStringLiteral("Values"), QStringLiteral("valuesDock"), Qt::BottomDockWidgetArea, parent)
    , m_model(new ValueModel(this))
    , m_proxy(new TextFilterProxy(this))
{
    m_proxy->setSourceModel(m_model);
    auto* valuesSplit = new QSplitter(Qt::Vertical, this);
    auto* valuesTop = new QWidget(valuesSplit);
    auto* vl = new QVBoxLayout(valuesTop);
    vl->setContentsMargins(0, 0, 0, 0);
    vl->setSpacing(2);
    m_filter = filterEdit(valuesTop, QStringLiteral("valueFilter"), QStringLiteral("Filter values"));
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &TextFilterProxy::setFilterText);
    vl->addWidget(m_filter);
    m_table = makeTable(valuesTop, QStringLiteral("valuesView"), m_proxy, QString() /* setContentState() */);
    vl->addWidget(m_table, 1);
    m_memoryPlan = new MemoryPlanWidget(valuesSplit);
    m_memoryPlan->setObjectName(QStringLiteral("memoryPlan"));
    valuesSplit->addWidget(valuesTop);
    valuesSplit->addWidget(captioned(valuesSplit, QStringLiteral("Memory plan"), m_memoryPlan));
    setContent(valuesSplit);
}

QWidget* ValuesView::focusTarget() const { return m_table; }

void ValuesView::setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method)
{
    m_model->setMethod(snapshot, method);
    for (int c = ValueModel::LoggedColumn; c < ValueModel::RunShapeColumn; ++c)
        m_table->setColumnHidden(c, !m_model->hasLoggedValues());
    bool runGap = false;
    if (m_model->hasRun())
        for (int r = 0; r < m_model->rowCount() && !runGap; ++r)
            runGap = m_model->runValue(r) && m_model->runValue(r)->gap;
    auto* header = m_table->horizontalHeader();
    for (int c = ValueModel::RunShapeColumn; c < ValueModel::ColumnCount; ++c) {
        m_table->setColumnHidden(c, !m_model->hasRun() || (c == ValueModel::RunGapColumn && !runGap));
        // What the run computed sits next to the planned shape.
        const int target = header->visualIndex(ValueModel::ShapeColumn) + 1 + (c - ValueModel::RunShapeColumn);
        if (m_model->hasRun() && header->visualIndex(c) != target)
            header->moveSection(header->visualIndex(c), target);
    }
    const MethodEntry* entry = snapshot ? snapshot->method(method.toStdString()) : nullptr;
    m_memoryPlan->setPlan(entry ? memoryPlanFor(*entry) : std::vector<pte::PlannedTensor> {},
        entry && entry->plan ? entry->plan->nonConstBufferSizes : std::vector<std::int64_t> {});
    autoSize(m_table);
}

void ValuesView::setContentState(ContentState state)
{
    m_table->setEmptyText(emptyTextFor(state, QStringLiteral("No value matches the filter")));
}

void ValuesView::clearFilters() { m_filter->clear(); }

void ValuesView::selectValues(const std::vector<std::int32_t>& values)
{
    QItemSelection selection;
    for (const auto v : values) {
        if (v < 0 || v >= m_model->rowCount())
            continue;
        const QModelIndex idx = m_proxy->mapFromSource(m_model->index(v, 0));
        if (idx.isValid())
            selection.select(idx, idx);
    }
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (!selection.isEmpty())
        m_table->scrollTo(selection.indexes().front());
    m_memoryPlan->setHighlightedValues(values);
}

bool ValuesView::revealValue(int id)
{
    if (id < 0 || id >= m_model->rowCount())
        return false;
    QModelIndex idx = m_proxy->mapFromSource(m_model->index(id, 0));
    if (!idx.isValid()) {
        m_filter->clear();
        idx = m_proxy->mapFromSource(m_model->index(id, 0));
    }
    m_table->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(idx, QAbstractItemView::PositionAtCenter);
    return true;
}

} // namespace pte::ui
