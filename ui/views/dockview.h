// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"

#include <QWidget>

#include <memory>

namespace pte::ui {

/** What the document holds, for the texts empty views show. */
enum class ContentState
{
    Nothing, ///< no file open
    NotEmitted, ///< graph dumps only: the program views wait for an emission
    Program, ///< a loaded or emitted program
};

/**
 * One dock panel of the main window. The window creates a QDockWidget per view (title, object name and
 * area from here), hands every view each new snapshot and each method change, and gives Ctrl+<n> to the
 * focus target. Cross-selection between views stays in MainWindow; a view only offers what its own tables
 * can do (select rows, reveal a row, say what is selected) and signals what the user did.
 *
 * To add a panel: subclass DockView in ui/views/<name>view.{h,cpp}, fill setSnapshot() and/or setMethod(),
 * and append it in MainWindow::createViews(). Bottom-area views are tabbed with the others in creation order.
 */
class DockView : public QWidget
{
    Q_OBJECT
public:
    /** `dockName` is the QDockWidget's object name (saved layouts refer to it: keep it stable). `area`
     *  Qt::NoDockWidgetArea puts the view in the window's central area instead of a dock (the graph). */
    DockView(QString title, QString dockName, Qt::DockWidgetArea area, QWidget* parent = nullptr);

    [[nodiscard]] const QString& title() const { return m_title; }
    /** The dock's title now: the title, plus what the view adds (a count). */
    [[nodiscard]] const QString& currentTitle() const { return m_currentTitle; }
    [[nodiscard]] const QString& dockName() const { return m_dockName; }
    [[nodiscard]] Qt::DockWidgetArea area() const { return m_area; }
    /** The widget that gets the focus when the user goes to this dock (View > Go to). */
    [[nodiscard]] virtual QWidget* focusTarget() const = 0;

    /** A new document snapshot (program-wide content). Called before setMethod(). */
    virtual void setSnapshot(std::shared_ptr<const Snapshot> snapshot);
    /** The method every view shows. */
    virtual void setMethod(std::shared_ptr<const Snapshot> snapshot, const QString& method);
    /** Updates the texts shown while tables are empty. */
    virtual void setContentState(ContentState state);
    /** Empties find and filter boxes (another file was opened). */
    virtual void clearFilters();

Q_SIGNALS:
    /** The dock's title changed (the window shows it on the dock and its tab). */
    void currentTitleChanged(const QString& title);

protected:
    /** Sets the dock's title to the title followed by `suffix` (e.g. " (3)"). */
    void setTitleSuffix(const QString& suffix);
    /** The empty-table text for a state: `withProgram` once there is a program, "not emitted yet" before. */
    [[nodiscard]] static QString emptyTextFor(ContentState state, const QString& withProgram);
    /** Puts `content` in this view, filling it without margins. */
    void setContent(QWidget* content);

private:
    QString m_title;
    QString m_currentTitle;
    QString m_dockName;
    Qt::DockWidgetArea m_area;
};

} // namespace pte::ui
