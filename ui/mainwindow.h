// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QMainWindow>

namespace pte::ui {

/** The ptelens workbench window. */
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /** Opens a .pte, a graph dump or an ETRecord (asynchronously). */
    void openFiles(const QStringList& paths);
};

} // namespace pte::ui
