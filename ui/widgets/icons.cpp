// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "widgets/icons.h"

#include <QApplication>
#include <QIconEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QProxyStyle>

#include <cmath>
#include <initializer_list>

namespace pte::ui {

namespace {

/** A path of open polylines, each from its first point through the others. */
QPainterPath polylines(std::initializer_list<std::initializer_list<QPointF>> lines)
{
    QPainterPath path;
    for (const auto& line : lines) {
        bool first = true;
        for (const QPointF& point : line) {
            if (first)
                path.moveTo(point);
            else
                path.lineTo(point);
            first = false;
        }
    }
    return path;
}

/** Paints one icon in a 64x64 design grid scaled to the target rectangle. */
void paintIcon(QPainter& p, IconKind kind, const QRectF& rect, QIcon::Mode mode)
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.translate(rect.topLeft());
    p.scale(rect.width() / 64.0, rect.height() / 64.0);
    const bool disabled = mode == QIcon::Disabled;
    auto c = [disabled](QColor color) {
        if (!disabled)
            return color;
        const int g = qGray(color.rgb());
        return QColor(g, g, g, 110);
    };
    auto pen = [&](QColor color, double width) {
        QPen pn(c(color), width);
        pn.setCapStyle(Qt::RoundCap);
        pn.setJoinStyle(Qt::RoundJoin);
        return pn;
    };
    switch (kind) {
    case IconKind::App: {
        p.setPen(Qt::NoPen);
        p.setBrush(c(QColor(0x2b, 0x4f, 0x81)));
        p.drawRoundedRect(QRectF(4, 4, 56, 56), 12, 12);
        p.setPen(pen(QColor(0xa9, 0xc6, 0xee), 2.5));
        p.setBrush(Qt::NoBrush);
        p.drawPath(polylines(
            { { { 20, 18 }, { 20, 30 }, { 32, 42 } }, { { 20, 30 }, { 14, 44 } }, { { 32, 42 }, { 32, 50 } } }));
        p.setPen(Qt::NoPen);
        p.setBrush(c(Qt::white));
        p.drawRoundedRect(QRectF(14, 12, 12, 8), 2, 2);
        p.drawRoundedRect(QRectF(10, 42, 10, 7), 2, 2);
        p.drawRoundedRect(QRectF(27, 48, 10, 7), 2, 2);
        p.setBrush(Qt::NoBrush);
        p.setPen(pen(QColor(0xff, 0xd1, 0x66), 4));
        p.drawEllipse(QPointF(40, 30), 11, 11);
        p.setPen(pen(QColor(0xff, 0xd1, 0x66), 5));
        p.drawLine(QPointF(48, 38), QPointF(56, 46));
        break;
    }
    case IconKind::Open: {
        // A folder with its flap open.
        p.setPen(pen(QColor(0x8a, 0x64, 0x14), 3));
        p.setBrush(c(QColor(0xf2, 0xc1, 0x4e)));
        p.drawPath(polylines({ { { 6, 50 }, { 6, 14 }, { 24, 14 }, { 29, 20 }, { 52, 20 }, { 52, 28 } } }));
        p.setBrush(c(QColor(0xf8, 0xd8, 0x7a)));
        const QPointF flap[] = { { 6, 50 }, { 15, 28 }, { 60, 28 }, { 51, 50 } };
        p.drawPolygon(flap, 4);
        break;
    }
    case IconKind::Save: {
        // A floppy disk.
        p.setPen(pen(QColor(0x1f, 0x3f, 0x6b), 3));
        p.setBrush(c(QColor(0x3d, 0x6f, 0xb0)));
        const QPointF body[] = { { 8, 8 }, { 46, 8 }, { 56, 18 }, { 56, 56 }, { 8, 56 } };
        p.drawPolygon(body, 5);
        p.setPen(Qt::NoPen);
        p.setBrush(c(QColor(0xe8, 0xee, 0xf6)));
        p.drawRect(QRectF(17, 10, 26, 15));
        p.drawRoundedRect(QRectF(15, 34, 34, 20), 2, 2);
        p.setBrush(c(QColor(0x1f, 0x3f, 0x6b)));
        p.drawRect(QRectF(34, 12, 6, 11));
        break;
    }
    case IconKind::Emit: {
        // A play triangle over a stack: "run the emitter".
        p.setPen(pen(QColor(0x1b, 0x6e, 0x3a), 3));
        p.setBrush(c(QColor(0x3c, 0xb3, 0x64)));
        const QPointF tri[] = { { 16, 8 }, { 54, 32 }, { 16, 56 } };
        p.drawPolygon(tri, 3);
        p.setPen(pen(Qt::white, 4));
        p.drawLine(QPointF(24, 26), QPointF(36, 32));
        p.drawLine(QPointF(24, 38), QPointF(36, 32));
        break;
    }
    case IconKind::Cancel: {
        p.setPen(pen(QColor(0x8e, 0x1b, 0x1b), 3));
        p.setBrush(c(QColor(0xd6, 0x45, 0x45)));
        QPolygonF oct;
        for (int i = 0; i < 8; ++i) {
            const double a = (22.5 + 45.0 * i) * 3.14159265358979 / 180.0;
            oct << QPointF(32 + 26 * std::cos(a), 32 + 26 * std::sin(a));
        }
        p.drawPolygon(oct);
        p.setPen(pen(Qt::white, 6));
        p.drawLine(QPointF(22, 22), QPointF(42, 42));
        p.drawLine(QPointF(42, 22), QPointF(22, 42));
        break;
    }
    case IconKind::Close: {
        p.setPen(pen(QColor(0x50, 0x58, 0x64), 6));
        p.drawLine(QPointF(18, 18), QPointF(46, 46));
        p.drawLine(QPointF(46, 18), QPointF(18, 46));
        break;
    }
    case IconKind::Float: {
        p.setPen(pen(QColor(0x50, 0x58, 0x64), 5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(24, 12, 28, 24));
        p.setBrush(c(QColor(0xf4, 0xf4, 0xf4)));
        p.drawRect(QRectF(12, 28, 28, 24));
        break;
    }
    }
    p.restore();
}

class WorkbenchStyle : public QProxyStyle
{
public:
    using QProxyStyle::QProxyStyle;
    QIcon standardIcon(StandardPixmap sp, const QStyleOption* option, const QWidget* widget) const override
    {
        switch (sp) {
        case SP_TitleBarCloseButton:
        case SP_DockWidgetCloseButton:
            return drawnIcon(IconKind::Close);
        case SP_TitleBarNormalButton:
            return drawnIcon(IconKind::Float);
        default:
            return QProxyStyle::standardIcon(sp, option, widget);
        }
    }
};

class DrawnIconEngine : public QIconEngine
{
public:
    explicit DrawnIconEngine(IconKind kind)
        : m_kind(kind)
    { }
    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State) override
    {
        const int side = std::min(rect.width(), rect.height());
        const QRectF square(
            rect.x() + (rect.width() - side) / 2.0, rect.y() + (rect.height() - side) / 2.0, side, side);
        paintIcon(*painter, m_kind, square, mode);
    }
    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override
    {
        return scaledPixmap(size, mode, state, 1.0);
    }
    QPixmap scaledPixmap(const QSize& size, QIcon::Mode mode, QIcon::State state, qreal scale) override
    {
        // Rendered at device pixels, so a 2x screen gets a sharp 2x pixmap, not an upscaled 1x one.
        QPixmap pm(size * scale);
        pm.fill(Qt::transparent);
        pm.setDevicePixelRatio(scale);
        QPainter p(&pm);
        paint(&p, QRect(QPoint(0, 0), size), mode, state);
        return pm;
    }
    QSize actualSize(const QSize& size, QIcon::Mode, QIcon::State) override { return size; }
    QIconEngine* clone() const override { return new DrawnIconEngine(m_kind); }
    QString key() const override { return QStringLiteral("ptelens-drawn"); }

private:
    IconKind m_kind;
};

} // namespace

QIcon drawnIcon(IconKind kind) { return QIcon(new DrawnIconEngine(kind)); }

void installWorkbenchStyle() { QApplication::setStyle(new WorkbenchStyle); }

QIcon themedIcon(const QString& themeName, IconKind fallback)
{
    if (QIcon::hasThemeIcon(themeName))
        return QIcon::fromTheme(themeName);
    return drawnIcon(fallback);
}

} // namespace pte::ui
