// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/diagnosticsview.h"

#include "models/diagnosticmodel.h"
#include "models/textfilterproxy.h"
#include "views/viewparts.h"
#include "widgets/tableview.h"

#include <QHeaderView>

namespace pte::ui {

DiagnosticsView::DiagnosticsView(QWidget* parent)
    : DockView(QStringLiteral("Diagnostics"), QStringLiteral("diagnosticsDock"), Qt::BottomDockWidgetArea, parent)
    , m_model(new DiagnosticModel(this))
    , m_proxy(new TextFilterProxy(this))
{
    m_proxy->setSourceModel(m_model);
    m_table = makeTable(this, QStringLiteral("diagnosticsView"), m_proxy, QStringLiteral("No problems found"));
    // The message comes first, after the severity's icon, and takes the width the other columns leave: on a narrow
    // window it is what stays on screen (the file, offset and field path are cut first; tooltips show them whole).
    auto* header = m_table->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(DiagnosticModel::MessageColumn, QHeaderView::Stretch);
    m_table->setToolTip(QStringLiteral("Double-click or press Enter to go to the instruction, value or node"));
    connect(m_table, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        if (index.isValid())
            Q_EMIT diagnosticActivated(m_proxy->mapToSource(index).row());
    });
    setContent(m_table);
}

QWidget* DiagnosticsView::focusTarget() const { return m_table; }

void DiagnosticsView::setSnapshot(std::shared_ptr<const Snapshot> snapshot)
{
    m_model->setDiagnostics(snapshot ? snapshot->diagnostics : pte::Diagnostics {});
    autoSize(m_table);
    updateTitle();
}

void DiagnosticsView::append(const pte::Diagnostic& diagnostic)
{
    m_model->append(diagnostic);
    updateTitle();
}

void DiagnosticsView::updateTitle()
{
    // The tab says how many of each severity there are, so a warning is seen without opening it (and ten notes do
    // not read as ten warnings).
    const QString counts = severityCounts(m_model->diagnostics());
    setTitleSuffix(counts.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(counts));
}

} // namespace pte::ui
