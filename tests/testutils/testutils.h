// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/result.h"

#include <QString>
#include <QTest>

#include <string>

namespace pte::test {

/** $PTELENS_CORPUS (the shared fixtures folder), or empty when unset or missing. */
QString corpusDir();
/** True under continuous integration (CI set, and not to "", "0" or "false"): what a developer's machine may lack
 *  (the corpus, ExecuTorch's runner) fails the tests that need it instead of skipping them. */
bool inCi();
/**
 * For a _data function with rows from the corpus (tagged "corpus…"): true when the corpus is there (add its rows);
 * else false, after adding one row tagged "corpus (PTELENS_CORPUS is not set)" without values, which the test
 * function's PTE_REQUIRE_CORPUS_ROW() skips with that reason (fails in CI). So a table never loses its corpus rows
 * silently, and never becomes empty.
 */
bool corpusRowsAvailable();
/** A file under the corpus, e.g. corpusPath("pte/pytorch_executorch__add.pte"). */
QString corpusPath(const QString& relative);
/** tests/data in the source tree. */
QString testDataDir();
/** The built ptelens-cli binary. */
QString cliPath();
/** The built ptelens-bench binary (bench/cli). */
QString benchPath();
/** A fresh temporary directory for this test process (removed at exit). */
QString tempDir();

/** Runs `program` with args; returns its exit code (-1 not started, -2 timed out, -3 crashed), fills stdout/stderr. */
int runProgram(const QString& program, const QStringList& args, QByteArray* out = nullptr, QByteArray* err = nullptr,
    int timeoutMs = 120000);
/** Runs ptelens-cli with args (runProgram). */
int runCli(const QStringList& args, QByteArray* out = nullptr, QByteArray* err = nullptr, int timeoutMs = 120000);
/** Runs ptelens-bench with args (runProgram). */
int runBench(const QStringList& args, QByteArray* out = nullptr, QByteArray* err = nullptr, int timeoutMs = 120000);

} // namespace pte::test

/** Skips the test (QSKIP) when the corpus is not available; in CI (CI=true) it fails instead. */
#define PTE_REQUIRE_CORPUS()                                                                                           \
    do {                                                                                                               \
        if (::pte::test::corpusDir().isEmpty()) {                                                                      \
            if (::pte::test::inCi())                                                                                   \
                QFAIL("PTELENS_CORPUS is not set or does not exist");                                                  \
            QSKIP("PTELENS_CORPUS is not set (the corpus, ../shared/fixtures, is not beside the repository)");         \
        }                                                                                                              \
    } while (false)

/** PTE_REQUIRE_CORPUS for the rows tagged "corpus…" of a data-driven test (see corpusRowsAvailable); call it
 *  before QFETCH. */
#define PTE_REQUIRE_CORPUS_ROW()                                                                                       \
    do {                                                                                                               \
        if (qstrncmp(QTest::currentDataTag(), "corpus", 6) == 0)                                                       \
            PTE_REQUIRE_CORPUS();                                                                                      \
    } while (false)

/** QVERIFY for a pte::Result, printing its error. */
#define QVERIFY_RESULT(r)                                                                                              \
    do {                                                                                                               \
        const auto& pteRes_ = (r);                                                                                     \
        if (!pteRes_.has_value())                                                                                      \
            QFAIL(("unexpected error: " + pteRes_.error().toString()).c_str());                                        \
    } while (false)

namespace QTest {
inline char* toString(const std::string& s) { return qstrdup(s.c_str()); }
} // namespace QTest
