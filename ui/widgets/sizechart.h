// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QWidget>

namespace pte::ui {

class SizeModel;

/** A stacked bar of the file by category, then the largest parts as bars (custom painted). */
class SizeChart : public QWidget
{
    Q_OBJECT
public:
    explicit SizeChart(QWidget* parent = nullptr);
    void setModel(const SizeModel* model);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    const SizeModel* m_model = nullptr;
    static constexpr int kTopParts = 10;
};

} // namespace pte::ui
