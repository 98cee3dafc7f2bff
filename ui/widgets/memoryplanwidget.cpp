// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/memoryplanwidget.h"

#include "models/text.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <map>

namespace pte::ui {

MemoryPlanWidget::MemoryPlanWidget(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

QSize MemoryPlanWidget::sizeHint() const
{
    const auto fm = fontMetrics();
    return { fm.averageCharWidth() * 80, fm.height() * 14 };
}

QSize MemoryPlanWidget::minimumSizeHint() const
{
    const auto fm = fontMetrics();
    return { fm.averageCharWidth() * 30, fm.height() * 6 };
}

void MemoryPlanWidget::setPlan(std::vector<pte::PlannedTensor> plan, std::vector<std::int64_t> bufferSizes)
{
    m_plan = std::move(plan);
    m_bufferSizes = std::move(bufferSizes);
    m_highlight.clear();
    relayout();
    update();
}

void MemoryPlanWidget::setHighlightedValues(const std::vector<std::int32_t>& values)
{
    m_highlight = values;
    std::sort(m_highlight.begin(), m_highlight.end());
    update();
}

void MemoryPlanWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void MemoryPlanWidget::relayout()
{
    m_rects.assign(m_plan.size(), QRectF());
    m_bands.clear();
    std::map<std::uint32_t, std::uint64_t> extents;
    m_instructions = 1;
    for (const auto& t : m_plan) {
        auto& e = extents[t.memoryId];
        e = std::max(e, t.offset + t.size);
        m_instructions = std::max(m_instructions, t.lastInstruction + 1);
    }
    for (const auto& [id, size] : extents)
        if (id < m_bufferSizes.size() && std::uint64_t(m_bufferSizes[id]) > size)
            extents[id] = std::uint64_t(m_bufferSizes[id]);
    if (extents.empty())
        return;
    const auto fm = fontMetrics();
    const double left = fm.horizontalAdvance(QStringLiteral("mem 00  000.0 MiB")) + fm.averageCharWidth();
    const double bottom = fm.height() * 1.6;
    const double top = fm.height() * 0.5;
    const double right = fm.averageCharWidth() * 2;
    const double gap = fm.height() * 0.6;
    const double availH = std::max(10.0, height() - top - bottom - gap * double(extents.size() - 1));
    const double bandH = availH / double(extents.size());
    double y = top;
    std::map<std::uint32_t, std::size_t> bandOf;
    for (const auto& [id, size] : extents) {
        bandOf[id] = m_bands.size();
        m_bands.push_back(Band { id, size, QRectF(left, y, std::max(10.0, width() - left - right), bandH) });
        y += bandH + gap;
    }
    for (std::size_t i = 0; i < m_plan.size(); ++i) {
        const auto& t = m_plan[i];
        const Band& b = m_bands[bandOf[t.memoryId]];
        const double x0 = b.rect.left() + b.rect.width() * double(t.firstInstruction) / double(m_instructions);
        const double x1 = b.rect.left() + b.rect.width() * double(t.lastInstruction + 1) / double(m_instructions);
        const double scale = b.extent ? b.rect.height() / double(b.extent) : 0.0;
        // Offsets grow downwards from the top of the band.
        const double y0 = b.rect.top() + double(t.offset) * scale;
        const double h = std::max(1.5, double(t.size) * scale);
        m_rects[i] = QRectF(x0, y0, std::max(2.0, x1 - x0), h);
    }
}

int MemoryPlanWidget::tensorAt(const QPointF& pos) const
{
    // Last drawn wins; small tensors drawn over big ones are found first by scanning backwards.
    for (int i = int(m_rects.size()) - 1; i >= 0; --i)
        if (m_rects[std::size_t(i)].contains(pos))
            return i;
    return -1;
}

void MemoryPlanWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const auto fm = fontMetrics();
    if (m_bands.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, QStringLiteral("No memory-planned tensors in this method"));
        return;
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    for (const auto& b : m_bands) {
        p.setPen(palette().color(QPalette::Mid));
        p.setBrush(palette().alternateBase());
        p.drawRect(b.rect);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(0, b.rect.top(), b.rect.left() - fm.averageCharWidth(), fm.height()),
            Qt::AlignRight | Qt::AlignTop, QStringLiteral("mem %1").arg(b.memoryId));
        p.drawText(QRectF(0, b.rect.top() + fm.height(), b.rect.left() - fm.averageCharWidth(), fm.height()),
            Qt::AlignRight | Qt::AlignTop, formatBytes(b.extent));
    }
    for (std::size_t i = 0; i < m_plan.size(); ++i) {
        const auto& t = m_plan[i];
        const bool hi = std::binary_search(m_highlight.begin(), m_highlight.end(), t.valueIndex);
        QColor c = QColor::fromHsv(int((std::uint32_t(t.valueIndex) * 47u) % 360u), 110, 225);
        if (hi)
            c = QColor(0xff, 0x8c, 0x00);
        p.setBrush(c);
        p.setPen(hi ? QPen(QColor(0x80, 0x40, 0x00), 2) : QPen(c.darker(150), 0));
        p.drawRect(m_rects[i]);
    }
    const Band& last = m_bands.back();
    p.setPen(palette().color(QPalette::Text));
    const QRectF axis(last.rect.left(), last.rect.bottom() + 2, last.rect.width(), fm.height());
    p.drawText(axis, Qt::AlignLeft | Qt::AlignTop, QStringLiteral("instruction 0"));
    p.drawText(axis, Qt::AlignHCenter | Qt::AlignTop, QStringLiteral("lifetime (x) · offset (y)"));
    p.drawText(axis, Qt::AlignRight | Qt::AlignTop, QString::number(m_instructions - 1));
}

bool MemoryPlanWidget::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int i = tensorAt(help->pos());
        if (i < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const auto& t = m_plan[std::size_t(i)];
        QToolTip::showText(help->globalPos(),
            valueRef(t.valueIndex) + QLatin1Char(' ') + toQString(t.name)
                + QStringLiteral("\nmem %1, offset %2, %3\ninstructions %4–%5")
                      .arg(t.memoryId)
                      .arg(t.offset)
                      .arg(formatBytes(t.size))
                      .arg(t.firstInstruction)
                      .arg(t.lastInstruction),
            this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace pte::ui
