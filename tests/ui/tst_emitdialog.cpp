// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "document/document.h"
#include "models/primgetters.h"
#include "uifixtures.h"
#include "widgets/emitdialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <cmath>

using namespace pte::ui;

class TestEmitDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Every Qt warning fails the test (in init(): Qt 6.4 forgets the patterns after each test function), except
    // the offscreen platform's note that it cannot propagate size hints.
    void init() { fixtures::failOnQtWarnings(); }

    void parsesEveryKind()
    {
        const auto r = parsePrimGetters(QStringLiteral("get_max_seq_len=128\n"
                                                       "  # a comment\n"
                                                       "\n"
                                                       "neg = -7\n"
                                                       "temperature=0.8\n"
                                                       "big=1e3\n"
                                                       "use_cache = TRUE\n"
                                                       "off=false\n"
                                                       "name=\"tiny llama\"\n"
                                                       "quoted_number='42'\n"
                                                       "bare=hello world\n"));
        QCOMPARE(r.errors, QStringList());
        QCOMPARE(r.getters.size(), std::size_t(9));
        QCOMPARE(std::get<pte::Int>(r.getters.at("get_max_seq_len").val).intVal, 128);
        QCOMPARE(r.getters.at("get_max_seq_len").rawType, std::uint8_t(2));
        QCOMPARE(std::get<pte::Int>(r.getters.at("neg").val).intVal, -7);
        QCOMPARE(std::get<pte::Double>(r.getters.at("temperature").val).doubleVal, 0.8);
        QCOMPARE(r.getters.at("temperature").rawType, std::uint8_t(4));
        QCOMPARE(std::get<pte::Double>(r.getters.at("big").val).doubleVal, 1000.0);
        QCOMPARE(std::get<pte::Bool>(r.getters.at("use_cache").val).boolVal, true);
        QCOMPARE(std::get<pte::Bool>(r.getters.at("off").val).boolVal, false);
        QCOMPARE(std::get<pte::String>(r.getters.at("name").val).stringVal, std::string("tiny llama"));
        QCOMPARE(r.getters.at("name").rawType, std::uint8_t(6));
        QCOMPARE(std::get<pte::String>(r.getters.at("quoted_number").val).stringVal, std::string("42"));
        QCOMPARE(std::get<pte::String>(r.getters.at("bare").val).stringVal, std::string("hello world"));
        // Round trip.
        const auto again = parsePrimGetters(formatPrimGetters(r.getters));
        QCOMPARE(again.errors, QStringList());
        QCOMPARE(again.getters.size(), r.getters.size());
        QCOMPARE(std::get<pte::Double>(again.getters.at("big").val).doubleVal, 1000.0);
        QCOMPARE(std::get<pte::String>(again.getters.at("quoted_number").val).stringVal, std::string("42"));
    }

    void reportsInvalidLines()
    {
        const auto r = parsePrimGetters(QStringLiteral("ok=1\n"
                                                       "no equals sign\n"
                                                       "=5\n"
                                                       "2bad=1\n"
                                                       "huge=99999999999999999999\n"
                                                       "open=\"abc\n"
                                                       "empty=\n"
                                                       "ok=2\n"));
        QCOMPARE(r.errors,
            QStringList({ QStringLiteral("Line 2: expected name=value"), QStringLiteral("Line 3: the name is empty"),
                QStringLiteral("Line 4: \"2bad\" is not a valid method name"),
                QStringLiteral("Line 5: 99999999999999999999 does not fit a 64-bit integer"),
                QStringLiteral("Line 6: the string has no closing \""),
                QStringLiteral("Line 7: the value is empty (use \"\" for an empty string)"),
                QStringLiteral("Line 8: \"ok\" is defined twice") }));
        QCOMPARE(r.getters.size(), std::size_t(1));
        QCOMPARE(std::get<pte::Int>(r.getters.at("ok").val).intVal, 1);
    }

    void dialogShowsInlineErrors()
    {
        auto snap = fixtures::makeSnapshot();
        EmitDialog dialog(*snap);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto* edit = dialog.findChild<QPlainTextEdit*>(QStringLiteral("emitPrimGetters"));
        auto* error = dialog.findChild<QLabel*>(QStringLiteral("emitPrimGettersError"));
        auto* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(edit && error && ok);
        QVERIFY(!error->isVisible());
        QVERIFY(ok->isEnabled());

        edit->setFocus();
        QTest::keyClicks(edit, QStringLiteral("get_answer=42"));
        QTest::keyClick(edit, Qt::Key_Return);
        QTest::keyClicks(edit, QStringLiteral("broken"));
        QVERIFY(error->isVisible());
        QCOMPARE(error->text(), QStringLiteral("Line 2: expected name=value"));
        if (const QString dir = qEnvironmentVariable("PTELENS_TEST_SCREENSHOTS"); !dir.isEmpty())
            dialog.grab().save(dir + QStringLiteral("/emitdialog-error.png"));
        QVERIFY(!ok->isEnabled());
        QVERIFY(!dialog.isValid());

        edit->setPlainText(QStringLiteral("forward=1"));
        QCOMPARE(error->text(), QStringLiteral("\"forward\" is also the name of a method"));
        QVERIFY(!ok->isEnabled());

        edit->setPlainText(QStringLiteral("get_answer=42\nget_scale=0.5"));
        QVERIFY(!error->isVisible());
        QVERIFY(ok->isEnabled());
        const EmitSettings s = dialog.settings();
        QCOMPARE(s.primGetters.size(), std::size_t(2));
        QCOMPARE(std::get<pte::Int>(s.primGetters.at("get_answer").val).intVal, 42);
        QCOMPARE(std::get<pte::Double>(s.primGetters.at("get_scale").val).doubleVal, 0.5);

        EmitDialog second(*snap);
        second.setSettings(s);
        QCOMPARE(second.findChild<QPlainTextEdit*>(QStringLiteral("emitPrimGetters"))->toPlainText(),
            QStringLiteral("get_answer=42\nget_scale=0.5"));
    }

    void emitsPrimGetters()
    {
        const QString example =
            qEnvironmentVariable("PTELENS_BUILD_DIR") + QStringLiteral("/examples/example.etrecord");
        QVERIFY2(QFileInfo::exists(example), qPrintable(example));
        Document doc;
        QSignalSpy loaded(&doc, &Document::loadFinished);
        doc.open({ example });
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 30000);
        EmitSettings settings;
        settings.primGetters = parsePrimGetters(QStringLiteral("get_answer=42\nget_name=\"tiny\"")).getters;
        QSignalSpy emitted(&doc, &Document::emitFinished);
        QSignalSpy failed(&doc, &Document::emitFailed);
        doc.emitProgram(settings);
        QTRY_COMPARE_WITH_TIMEOUT(emitted.size() + failed.size(), 1, 60000);
        QVERIFY2(failed.isEmpty(), qPrintable(fixtures::failureText(failed)));
        auto snap = doc.snapshot();
        // By default (as in ExecuTorch) the example's mutable buffer num_calls has no stored initial state.
        QVERIFY(snap->emitted);
        QVERIFY(snap->emitted->mutableData.size() <= 1); // at most the reserved empty entry
        const MethodEntry* answer = snap->method("get_answer");
        QVERIFY(answer && answer->plan);
        QVERIFY(answer->isConstant);
        const auto& plan = *answer->plan;
        QCOMPARE(plan.outputs.size(), std::size_t(1));
        QCOMPARE(std::get<pte::Int>(plan.values[std::size_t(plan.outputs[0])].val).intVal, 42);
        const MethodEntry* name = snap->method("get_name");
        QVERIFY(name && name->plan);
        QCOMPARE(std::get<pte::String>(name->plan->values[std::size_t(name->plan->outputs[0])].val).stringVal,
            std::string("tiny"));

        // A getter named like a method is refused before anything runs.
        QSignalSpy failed2(&doc, &Document::emitFailed);
        settings.primGetters = parsePrimGetters(QStringLiteral("forward=1")).getters;
        doc.emitProgram(settings);
        QCOMPARE(failed2.size(), 1);
        QCOMPARE(fixtures::failureText(failed2), QStringLiteral("\"forward\" is both a method and a prim getter."));
    }

    void initialisesMutableBuffersWhenAsked()
    {
        const QString example =
            qEnvironmentVariable("PTELENS_BUILD_DIR") + QStringLiteral("/examples/example.etrecord");
        Document doc;
        QSignalSpy loaded(&doc, &Document::loadFinished);
        doc.open({ example });
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 30000);
        EmitDialog dialog(*doc.snapshot());
        auto* box = dialog.findChild<QCheckBox*>(QStringLiteral("emitInitMutableBuffers"));
        QVERIFY(box && !box->isChecked());
        box->setChecked(true);
        const EmitSettings settings = dialog.settings();
        QVERIFY(settings.initialiseMutableBuffers);
        QSignalSpy emitted(&doc, &Document::emitFinished);
        QSignalSpy failed(&doc, &Document::emitFailed);
        doc.emitProgram(settings);
        QTRY_COMPARE_WITH_TIMEOUT(emitted.size() + failed.size(), 1, 60000);
        QVERIFY2(failed.isEmpty(), qPrintable(fixtures::failureText(failed)));
        const auto snap = doc.snapshot();
        QVERIFY(snap->emitted);
        // Entry 0 is the reserved placeholder; num_calls (one i64) is entry 1.
        QCOMPARE(snap->emitted->mutableData.size(), std::size_t(2));
        QCOMPARE(snap->emitted->mutableData[1].size(), std::size_t(8));
    }
};

QTEST_MAIN(TestEmitDialog)
#include "tst_emitdialog.moc"
