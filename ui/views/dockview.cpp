// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "views/dockview.h"

#include <QVBoxLayout>

namespace pte::ui {

DockView::DockView(QString title, QString dockName, Qt::DockWidgetArea area, QWidget* parent)
    : QWidget(parent)
    , m_title(std::move(title))
    , m_dockName(std::move(dockName))
    , m_area(area)
{
    m_currentTitle = m_title;
}

void DockView::setTitleSuffix(const QString& suffix)
{
    const QString title = m_title + suffix;
    if (title == m_currentTitle)
        return;
    m_currentTitle = title;
    Q_EMIT currentTitleChanged(title);
}

void DockView::setSnapshot(std::shared_ptr<const Snapshot> /*snapshot*/) { }

void DockView::setMethod(std::shared_ptr<const Snapshot> /*snapshot*/, const QString& /*method*/) { }

void DockView::setContentState(ContentState /*state*/) { }

void DockView::clearFilters() { }

QString DockView::emptyTextFor(ContentState state, const QString& withProgram)
{
    switch (state) {
    case ContentState::Program:
        return withProgram;
    case ContentState::NotEmitted:
        return QStringLiteral("Not emitted yet: emit the graph dump (Ctrl+E)");
    case ContentState::Nothing:
        break;
    }
    return {};
}

void DockView::setContent(QWidget* content)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(content);
}

} // namespace pte::ui
