// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The user's run target (pte/runnertemplate.h): placeholders replaced by shell-quoted paths, unknown placeholders and
// a template without {pte} refused with the placeholder and its offset, the shell's own braces kept.
#include "pte/runnertemplate.h"

#include <QProcess>
#include <QTest>

using namespace pte;

namespace {

RunnerPaths paths()
{
    return RunnerPaths { "/tmp/run/program.pte", "/tmp/run/run.etdp", "/tmp/run/debug.bin", "/tmp/run/inputs.json" };
}

} // namespace

class TestRunnerTemplate : public QObject
{
    Q_OBJECT
private slots:
    void quote_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("quoted");
        QTest::newRow("plain path") << "/tmp/a_b-c.1/x.pte"
                                    << "/tmp/a_b-c.1/x.pte";
        QTest::newRow("space") << "/tmp/my dir/x.pte"
                               << "'/tmp/my dir/x.pte'";
        QTest::newRow("single quote") << "it's"
                                      << "'it'\\''s'";
        QTest::newRow("dollar and star") << "$HOME/*"
                                         << "'$HOME/*'";
        QTest::newRow("empty") << ""
                               << "''";
    }
    void quote()
    {
        QFETCH(QString, text);
        QFETCH(QString, quoted);
        QCOMPARE(QString::fromStdString(shellQuote(text.toStdString())), quoted);
    }

    void quotedWordsReachTheCommandWhole()
    {
        // What sh makes of a quoted path is the path itself, whatever it holds.
        const std::string nasty = "/tmp/a b/it's $(echo no) `x` \"q\"; *.pte\n";
        QProcess sh;
        sh.start(QStringLiteral("/bin/sh"),
            { QStringLiteral("-c"), QString::fromStdString("printf %s " + shellQuote(nasty)) });
        QVERIFY(sh.waitForFinished());
        QCOMPARE(sh.readAllStandardOutput().toStdString(), nasty);
    }

    void expand_data()
    {
        QTest::addColumn<QString>("templ");
        QTest::addColumn<QString>("command");
        QTest::newRow("runner") << "executor_runner --model_path {pte} --etdump_path {etdump}"
                                << "executor_runner --model_path /tmp/run/program.pte --etdump_path /tmp/run/run.etdp";
        QTest::newRow("every placeholder, twice")
            << "r {pte} {etdump} {debug_buffer} {inputs} {pte}"
            << "r /tmp/run/program.pte /tmp/run/run.etdp /tmp/run/debug.bin /tmp/run/inputs.json /tmp/run/program.pte";
        QTest::newRow("shell braces kept") << "${RUNNER} { r {pte}; } && echo {a,b} {{pte}} {"
                                           << "${RUNNER} { r /tmp/run/program.pte; } && echo {a,b} {pte} {";
        QTest::newRow("adjacent text") << "--model={pte}:x"
                                       << "--model=/tmp/run/program.pte:x";
    }
    void expand()
    {
        QFETCH(QString, templ);
        QFETCH(QString, command);
        auto out = expandRunnerTemplate(templ.toStdString(), paths());
        QVERIFY2(out, out ? "" : out.error().message.c_str());
        QCOMPARE(QString::fromStdString(*out), command);
    }

    void pathsAreQuoted()
    {
        RunnerPaths p = paths();
        p.pte = "/tmp/my run/it's.pte";
        auto out = expandRunnerTemplate("r {pte}", p);
        QVERIFY(out);
        QCOMPARE(*out, std::string("r '/tmp/my run/it'\\''s.pte'"));
    }

    void unknownPlaceholder()
    {
        auto out = expandRunnerTemplate("runner {pte} --out {etdmp}", paths());
        QVERIFY(!out);
        QCOMPARE(out.error().code, ErrorCode::InvalidInput);
        QCOMPARE(out.error().offset, std::optional<std::uint64_t>(19));
        QVERIFY2(out.error().message.find("'{etdmp}' at offset 19") != std::string::npos, out.error().message.c_str());
        QVERIFY(out.error().message.find("{etdump}") != std::string::npos); // the known ones are listed
    }

    void unclosedPlaceholder()
    {
        auto out = expandRunnerTemplate("runner {pte} {etdump", paths());
        QVERIFY(!out);
        QCOMPARE(out.error().offset, std::optional<std::uint64_t>(13));
        QVERIFY2(out.error().message.find("'{etdump' at offset 13 has no closing '}'") != std::string::npos,
            out.error().message.c_str());
    }

    void withoutPte()
    {
        for (const char* t : { "runner --etdump {etdump}", "", "runner {{pte}}" }) {
            auto out = expandRunnerTemplate(t, paths());
            QVERIFY2(!out, t);
            QCOMPARE(out.error().code, ErrorCode::InvalidInput);
            QVERIFY(out.error().message.find("{pte}") != std::string::npos);
        }
    }

    void uses()
    {
        QVERIFY(runnerTemplateUses("r {pte} {etdump}", "etdump"));
        QVERIFY(!runnerTemplateUses("r {pte} {{etdump}}", "etdump"));
        QVERIFY(!runnerTemplateUses("r {pte} ${etdump}", "etdump"));
        QVERIFY(!runnerTemplateUses("r {pte} {bad}", "pte")); // an invalid template names nothing
    }

    void placeholdersListed()
    {
        const auto& list = runnerPlaceholders();
        QCOMPARE(list.size(), std::size_t(4));
        for (const auto& p : list) {
            auto out = expandRunnerTemplate("r {pte} {" + std::string(p.name) + "}", paths());
            QVERIFY2(out, p.name);
            QVERIFY(std::string(p.meaning).size() > 10);
        }
    }
};

QTEST_GUILESS_MAIN(TestRunnerTemplate)
#include "tst_runnertemplate.moc"
