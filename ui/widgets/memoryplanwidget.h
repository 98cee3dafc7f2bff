// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/emitter.h"

#include <QWidget>

#include <vector>

namespace pte::ui {

/**
 * Draws a memory plan: each planned tensor is a rectangle spanning its lifetime (x, instruction ids)
 * and its bytes (y, offset within its memory id). One band per memory id. Hover shows the tensor.
 */
class MemoryPlanWidget : public QWidget
{
    Q_OBJECT
public:
    explicit MemoryPlanWidget(QWidget* parent = nullptr);

    void setPlan(std::vector<pte::PlannedTensor> plan, std::vector<std::int64_t> bufferSizes = {});
    [[nodiscard]] const std::vector<pte::PlannedTensor>& plan() const { return m_plan; }
    /** Index into plan() of the tensor drawn at a widget position, or -1. */
    [[nodiscard]] int tensorAt(const QPointF& pos) const;
    /** Highlights the tensors of these value ids. */
    void setHighlightedValues(const std::vector<std::int32_t>& values);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    void relayout();

    std::vector<pte::PlannedTensor> m_plan;
    std::vector<std::int64_t> m_bufferSizes;
    std::vector<QRectF> m_rects; ///< per plan entry, widget coordinates
    struct Band
    {
        std::uint32_t memoryId = 0;
        std::uint64_t extent = 0;
        QRectF rect;
    };
    std::vector<Band> m_bands;
    std::vector<std::int32_t> m_highlight;
    std::int32_t m_instructions = 1;
};

} // namespace pte::ui
