// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "mainwindow.h"

namespace pte::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("ptelens"));
}

MainWindow::~MainWindow() = default;

void MainWindow::openFiles(const QStringList&) { }

} // namespace pte::ui
