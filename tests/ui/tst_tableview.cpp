// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// TableView says why it is empty: its text is painted while the model has no rows, and only then.
#include "uifixtures.h"
#include "widgets/tableview.h"

#include <QImage>
#include <QStandardItemModel>
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
};

QTEST_MAIN(TestTableView)
#include "tst_tableview.moc"
