// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// TableView says why it is empty: its text is painted while the model has no rows, and only then. After a model
// reset, its scroll range fits the new rows before anything paints.
#include "uifixtures.h"
#include "widgets/tableview.h"

#include <QHeaderView>
#include <QImage>
#include <QScrollBar>
#include <QStandardItemModel>
#include <QStringListModel>
#include <QTest>

using namespace pte::ui;

namespace {

QImage render(TableView& view)
{
    view.viewport()->repaint();
    return view.viewport()->grab().toImage();
}

} // namespace

class TestTableView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { pte::ui::fixtures::failOnQtWarnings(); }

    void paintsTextOnlyWhileEmpty()
    {
        QStandardItemModel model(0, 2);
        TableView view;
        view.setModel(&model);
        view.resize(400, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        const QImage blank = render(view);
        view.setEmptyText(QStringLiteral("Nothing here"));
        QCOMPARE(view.emptyText(), QStringLiteral("Nothing here"));
        const QImage withText = render(view);
        QVERIFY(withText != blank);

        // One row: the table is drawn as usual, whatever the empty text.
        model.appendRow({ new QStandardItem(QStringLiteral("a")), new QStandardItem(QStringLiteral("b")) });
        const QImage rowWithText = render(view);
        view.setEmptyText(QString());
        const QImage rowWithout = render(view);
        QCOMPARE(rowWithText, rowWithout);

        // Empty again: the text comes back when set.
        model.removeRows(0, 1);
        QCOMPARE(render(view), blank);
        view.setEmptyText(QStringLiteral("Nothing here"));
        QCOMPARE(render(view), withText);
    }

    /** Scrolled to the last of 1000 rows, then reset to 100 (a filter proxy's reset): the scroll range and the
     *  vertical header's offset fit the 100 rows at once. Left to the delayed layout, a paint in between finds no
     *  header section at the old offset and QHeaderView paints every section (issue 24, point 22: 200 ms for a
     *  filter over 200k instructions after a scroll). */
    void scrollRangeFollowsAReset()
    {
        QStringList rows;
        for (int i = 0; i < 1000; ++i)
            rows << QString::number(i);
        QStringListModel model(rows);
        TableView view;
        view.setModel(&model);
        view.resize(300, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.scrollToBottom();
        QHeaderView* header = view.verticalHeader();
        QVERIFY(header->visualIndexAt(0) > 900);

        model.setStringList(rows.mid(0, 100)); // a reset; no event is processed before the checks
        QCOMPARE(header->count(), 100);
        QVERIFY2(header->offset() <= header->length() - header->viewport()->height(),
            qPrintable(QStringLiteral("offset %1, length %2").arg(header->offset()).arg(header->length())));
        QVERIFY(header->visualIndexAt(0) >= 0);
        QVERIFY(header->visualIndexAt(header->viewport()->height() - 1) >= 0);
        QVERIFY(view.verticalScrollBar()->maximum() < 100);
    }
};

QTEST_MAIN(TestTableView)
#include "tst_tableview.moc"
