// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The reference interpreter on arguments torch itself refuses: a kernel must stop the run naming the problem, never
// read outside a tensor or call std::clamp with an empty range. Each graph is written as a malformed dump would write
// it (the node's declared output shape is what torch would have refused to compute), emitted by ptelens and run on the
// interpreter and on ExecuTorch's runtime, which must refuse it too.
#include "etrunner.h"
#include "executiontestutils.h"
#include "operatorcases.h"
#include "pte/interpreterrun.h"
#include "runtimecase.h"
#include "testutils.h"

#include <QTest>

using namespace pte;
using namespace pte::test;
using nlohmann::json;

namespace {

/** Runs `c` on the interpreter and returns the message the execution stopped with ("" when it ran to the end). */
std::string stopMessage(Case& c)
{
    auto run = emitAndRunForward(c.dump, c.inputs, "malformed");
    if (!run)
        return "emission failed: " + run.error().message;
    if (run->loadError)
        return "load failed: " + run->loadError->message;
    const auto& x = run->executions.back();
    return x.ok() ? std::string() : x.error ? x.error->message : std::string("stopped");
}

/** ExecuTorch's portable kernel must stop on `c` as well (skips without the runtime). */
#define expectRuntimeRefuses(c)                                                                                        \
    do {                                                                                                               \
        PTE_REQUIRE_ET_RUNNER();                                                                                       \
        const auto problem_ = emitAndRunOnRuntime((c), "malformed");                                                   \
        QVERIFY2(problem_.has_value(), "ExecuTorch's runtime ran the malformed program");                              \
        qInfo("runtime: %s", problem_->c_str());                                                                       \
    } while (false)

} // namespace

class TestInterpMalformed : public QObject
{
    Q_OBJECT

private slots:
    void scatterIndexLargerThanSrc()
    {
        // index [2, 2] but src [2, 1]: torch requires index.size(d) <= src.size(d) for every d
        Case c;
        c.in("x", { 2, 4 }, std::vector<double>(8, 0.0));
        c.in("i", { 2, 2 }, { 0, 1, 2, 3 }, kLong);
        c.in("s", { 2, 1 }, { 10, 20 });
        c.op("y", "scatter.src",
            json::array({ arg("self", T("x")), arg("dim", I(1)), arg("index", T("i")), arg("src", T("s")) }), { 2, 4 },
            std::vector<double>(8, 0.0));
        const std::string message = stopMessage(c);
        QVERIFY2(message.find("larger than src in dimension 1") != std::string::npos, message.c_str());
        expectRuntimeRefuses(c);
    }

    void gatherIndexLargerThanSelf()
    {
        // index [3, 1] on self [2, 4] along dim 1: dimension 0 of index exceeds self's
        Case c;
        c.in("x", { 2, 4 }, std::vector<double>(8, 1.0));
        c.in("i", { 3, 1 }, { 0, 0, 0 }, kLong);
        c.op("y", "gather.default", json::array({ arg("self", T("x")), arg("dim", I(1)), arg("index", T("i")) }),
            { 3, 1 }, { 1, 1, 1 });
        const std::string message = stopMessage(c);
        QVERIFY2(message.find("larger than self in dimension 0") != std::string::npos, message.c_str());
        expectRuntimeRefuses(c);
    }

    void scatterWellFormedStillRuns()
    {
        // the guard's boundary: index as large as src and self (but dim) is accepted
        Case c;
        c.in("x", { 2, 3 }, std::vector<double>(6, 0.0));
        c.in("i", { 2, 3 }, { 2, 1, 0, 0, 2, 1 }, kLong);
        c.in("s", { 2, 3 }, { 1, 2, 3, 4, 5, 6 });
        c.op("y", "scatter.src",
            json::array({ arg("self", T("x")), arg("dim", I(1)), arg("index", T("i")), arg("src", T("s")) }), { 2, 3 },
            { 3, 2, 1, 4, 6, 5 });
        auto run = emitAndRunForward(c.dump, c.inputs, "scatter");
        QVERIFY_RESULT(run);
        const auto& x = run->executions.back();
        QVERIFY2(x.ok(), x.error ? x.error->message.c_str() : "stopped");
        QCOMPARE(x.outputs.front().values, c.expected.front().values);
        QVERIFY_RUNS_ON_RUNTIME(c, "scatter");
    }

    void replicationPadOfEmptyDimension()
    {
        // replication_pad1d of a [1, 2, 0] input: there is no edge element to repeat. (ExecuTorch's portable kernel
        // does not check it and aborts on an assert in its index arithmetic: the runtime cannot run it either.)
        Case c;
        c.in("x", { 1, 2, 0 }, {});
        c.op("y", "replication_pad1d.default", json::array({ arg("self", T("x")), arg("padding", Ints({ 1, 1 })) }),
            { 1, 2, 2 }, std::vector<double>(4, 0.0));
        const std::string message = stopMessage(c);
        QVERIFY2(message.find("which is empty") != std::string::npos, message.c_str());
        expectRuntimeRefuses(c);
    }
};

QTEST_GUILESS_MAIN(TestInterpMalformed)
#include "tst_interp_malformed.moc"
