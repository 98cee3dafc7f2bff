// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Building blocks the dock panels share: tables set up alike, captions, filter boxes, pane sizing.

#include <QString>

class QAbstractItemModel;
class QLabel;
class QLineEdit;
class QTableView;
class QWidget;

namespace pte::ui {

class TableView;

/**
 * A table as every view shows one: whole-row extended selection, fixed row height from the font (a million
 * rows scroll without measuring any), movable columns, the last one stretched, sortable unless told.
 */
TableView* makeTable(
    QWidget* parent, const QString& name, QAbstractItemModel* model, const QString& emptyText, bool sortable = true);
/** Sizes the columns to their content (bounded sample of rows), none wider than 50 characters. */
void autoSize(QTableView* view);
/** `content` under a bold caption (the label in `*label` when given, to change its text later). */
QWidget* captioned(QWidget* parent, const QString& caption, QWidget* content, QLabel** label = nullptr);
/** A filter box with a clear button. */
QLineEdit* filterEdit(QWidget* parent, const QString& name, const QString& placeholder);

/** Height of a caption() label. */
int captionHeight(const QWidget* widget);
/** Height a table needs to show all its rows (at least one) with its header and half a row to spare. */
int tableHeight(const QTableView* view);
/** Makes a table keep at least its header and one row visible. */
void keepOneRowVisible(QTableView* view);

} // namespace pte::ui
