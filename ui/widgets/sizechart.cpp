// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/sizechart.h"

#include "models/sizemodel.h"
#include "models/text.h"

#include <QPainter>

#include <algorithm>
#include <map>

namespace pte::ui {

SizeChart::SizeChart(QWidget* parent)
    : QWidget(parent)
{ }

void SizeChart::setModel(const SizeModel* model)
{
    m_model = model;
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        updateGeometry();
        update();
    });
    update();
}

QSize SizeChart::sizeHint() const
{
    const auto fm = fontMetrics();
    return { fm.averageCharWidth() * 70, fm.lineSpacing() * (kTopParts + 6) };
}

QSize SizeChart::minimumSizeHint() const
{
    const auto fm = fontMetrics();
    return { fm.averageCharWidth() * 30, fm.lineSpacing() * 6 };
}

void SizeChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const auto fm = fontMetrics();
    const double line = fm.lineSpacing();
    const double margin = fm.averageCharWidth() * 1.5;
    if (!m_model || m_model->entries().empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, QStringLiteral("No program loaded"));
        return;
    }
    std::map<int, std::uint64_t> byCategory;
    std::vector<const SizeModel::Entry*> parts;
    std::uint64_t sum = 0;
    for (const auto& e : m_model->entries()) {
        if (e.category == SizeModel::Category::Method)
            continue;
        byCategory[int(e.category)] += e.size;
        sum += e.size;
        parts.push_back(&e);
    }
    const std::uint64_t total = std::max(m_model->total(), sum);
    double y = margin;
    p.setPen(palette().color(QPalette::Text));
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QPointF(margin, y + fm.ascent()), QStringLiteral("Total %1").arg(formatBytes(total)));
    p.setFont(font());
    y += line * 1.3;
    // Stacked bar.
    const double barW = width() - 2 * margin;
    double x = margin;
    for (const auto& [cat, size] : byCategory) {
        const double w = total ? barW * double(size) / double(total) : 0;
        p.fillRect(QRectF(x, y, std::max(w, size ? 1.0 : 0.0), line * 1.2),
            SizeModel::categoryColor(SizeModel::Category(cat)));
        x += w;
    }
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(margin, y, barW, line * 1.2));
    y += line * 1.6;
    // Legend.
    x = margin;
    p.setPen(palette().color(QPalette::Text));
    for (const auto& [cat, size] : byCategory) {
        const QString text = QStringLiteral("%1 %2 (%3 %)")
                                 .arg(SizeModel::categoryName(SizeModel::Category(cat)), formatBytes(size))
                                 .arg(total ? 100.0 * double(size) / double(total) : 0.0, 0, 'f', 1);
        const double w = line * 0.8 + fm.horizontalAdvance(text) + fm.averageCharWidth() * 3;
        if (x + w > width() - margin && x > margin) {
            x = margin;
            y += line;
        }
        p.fillRect(QRectF(x, y + (line - line * 0.7) / 2, line * 0.7, line * 0.7),
            SizeModel::categoryColor(SizeModel::Category(cat)));
        p.drawText(QPointF(x + line, y + fm.ascent()), text);
        x += w;
    }
    y += line * 1.6;
    // Largest parts.
    std::sort(parts.begin(), parts.end(), [](const auto* a, const auto* b) { return a->size > b->size; });
    if (parts.size() > std::size_t(kTopParts))
        parts.resize(std::size_t(kTopParts));
    const std::uint64_t largest = parts.empty() ? 1 : std::max<std::uint64_t>(parts.front()->size, 1);
    const double labelW = std::min(width() * 0.4, fm.averageCharWidth() * 34.0);
    const double sizeW = fm.horizontalAdvance(QStringLiteral("000.0 MiB  ")) + margin;
    for (const auto* e : parts) {
        if (y + line > height())
            break;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(margin, y, labelW - margin, line), Qt::AlignLeft | Qt::AlignVCenter,
            fm.elidedText(e->name, Qt::ElideMiddle, int(labelW - margin)));
        const double maxBar = std::max(10.0, width() - labelW - sizeW - margin);
        const double w = std::max(1.0, maxBar * double(e->size) / double(largest));
        p.fillRect(QRectF(labelW, y + line * 0.15, w, line * 0.7), SizeModel::categoryColor(e->category));
        p.drawText(QRectF(labelW + w + fm.averageCharWidth(), y, sizeW, line), Qt::AlignLeft | Qt::AlignVCenter,
            formatBytes(e->size));
        y += line;
    }
}

} // namespace pte::ui
