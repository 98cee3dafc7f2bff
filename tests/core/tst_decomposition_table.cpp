// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// docs/decompositions.md: every aten operator of tests/data/decompositions/ops.tsv (what torch.nn modules, functionals
// and tensor methods put in a training-IR graph, and torch's core-ATen decomposition table) with what ptelens' lowering
// makes of it (core/src/emit: operatorLowering) and the runtime tests that run it on ExecuTorch's runtime. An
// operator the lowering can neither decompose nor emit as a kernel must say why it is refused; the document must be
// the one this test generates (PTELENS_DECOMPOSITIONS_TABLE=FILE writes it: `make decompositions-table`).
#include "emit/decompositions.h"
#include "testutils.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <map>
#include <set>
#include <sstream>

using namespace pte;
using namespace pte::emitcore;

namespace {

struct Row
{
    std::string op;
    std::string source;
    std::string reason;
};

std::vector<Row> readOps(QString& error)
{
    QFile f(pte::test::testDataDir() + QStringLiteral("/decompositions/ops.tsv"));
    if (!f.open(QIODevice::ReadOnly)) {
        error = QStringLiteral("cannot read ") + f.fileName();
        return {};
    }
    std::vector<Row> rows;
    std::istringstream in(f.readAll().toStdString());
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        Row r;
        std::istringstream cols(line);
        std::getline(cols, r.op, '\t');
        std::getline(cols, r.source, '\t');
        std::getline(cols, r.reason);
        rows.push_back(std::move(r));
    }
    return rows;
}

/** The runtime tests (tst_*.cpp in tests/runtime) that build a node of aten operator `op`, by file name. */
std::map<std::string, std::set<std::string>> testsByOp(const std::vector<Row>& rows)
{
    std::map<std::string, std::set<std::string>> by;
    const QDir dir(pte::test::testDataDir() + QStringLiteral("/../runtime"));
    for (const auto& file : dir.entryList({ QStringLiteral("tst_*.cpp") }, QDir::Files, QDir::Name)) {
        QFile f(dir.filePath(file));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const std::string text = f.readAll().toStdString();
        const std::string name = file.toStdString().substr(0, file.size() - 4);
        for (const auto& r : rows) {
            // A node target as the tests write it: "lstm.input", "relu_.default", "torch.ops.aten.pad.default".
            // A Python functional (from "py") is tested through the pieces torch.export records: "F.softsign".
            const std::vector<std::string> patterns = r.source == "py"
                ? std::vector<std::string> { "F." + r.op + "(", "F." + r.op + ":" }
                : std::vector<std::string> { "\"" + r.op + ".", "aten." + r.op + "." };
            for (const auto& pattern : patterns)
                if (text.find(pattern) != std::string::npos)
                    by[r.op].insert(name);
        }
    }
    return by;
}

std::string kindWord(OperatorLowering::Kind k)
{
    switch (k) {
    case OperatorLowering::Kind::Decomposed:
        return "decomposed";
    case OperatorLowering::Kind::Kernel:
        return "kernel";
    case OperatorLowering::Kind::Functionalized:
        return "functional form";
    case OperatorLowering::Kind::None:
        break;
    }
    return "**refused**";
}

std::string escape(std::string s)
{
    for (std::size_t p = 0; (p = s.find('|', p)) != std::string::npos; p += 2)
        s.replace(p, 1, "\\|");
    return s;
}

std::string generate(const std::vector<Row>& rows)
{
    const auto tests = testsByOp(rows);
    std::map<OperatorLowering::Kind, std::size_t> counts;
    std::size_t tested = 0;
    std::size_t functionals = 0;
    std::string table;
    std::set<std::string> listed;
    for (const auto& r : rows) {
        listed.insert(r.op);
        const auto l = operatorLowering(r.op);
        const bool python = r.source == "py";
        if (python)
            ++functionals;
        else
            ++counts[l.kind];
        const auto t = tests.find(r.op);
        std::string testNames;
        if (t != tests.end()) {
            ++tested;
            for (const auto& n : t->second)
                testNames += (testNames.empty() ? "" : ", ") + n;
        }
        const std::string what =
            python || (l.kind == OperatorLowering::Kind::None && l.becomes.empty()) ? r.reason : l.becomes;
        table += "| `" + r.op + "` | " + r.source + " | " + (python ? "its pieces" : kindWord(l.kind)) + " | "
            + escape(what) + " | " + (testNames.empty() ? "no" : "yes: " + testNames) + " |\n";
    }
    std::string extra;
    for (const auto& d : decompositionTable())
        if (!listed.count(d.op))
            extra += "| `" + d.op + "` | " + escape(d.becomes) + " |\n";
    std::string md =
        "<!-- SPDX-FileCopyrightText: 2026 The ptelens authors -->\n"
        "<!-- SPDX-License-Identifier: BSD-3-Clause -->\n"
        "# What ptelens lowers each composite operator to\n\n"
        "Generated by `make decompositions-table` (tests/core/tst_decomposition_table with "
        "`PTELENS_DECOMPOSITIONS_TABLE`); do not edit by hand. How the lowering works: "
        "[lowering.md](lowering.md).\n\n"
        "The operators a `torch.export` graph of `torch.nn` modules, `torch.nn.functional` and common "
        "tensor methods can contain, and every entry of torch's core-ATen decomposition table "
        "(`tests/data/decompositions/ops.tsv`, from PyTorch 2.9). *from*: `cia` a "
        "CompositeImplicitAutograd op the training IR keeps as a node, `core` an entry of torch's "
        "decomposition table, `core-op` a core ATen op, `view` a view op, `export` a runtime check torch.export "
        "inserts (ExecuTorch removes them before emission), `py` a `torch.nn.functional` function "
        "that is no ATen operator (torch.export records the operators its Python body calls). *lowered as*: "
        "`decomposed` "
        "into core ops (what it becomes), `kernel` emitted as ExecuTorch's kernel(s), `functional form` an "
        "in-place op lowered as its functional op, `refused` an emission error saying why. *runtime "
        "test*: the tests in `tests/runtime` that build a node of the operator, emit it and run it on "
        "ExecuTorch's runtime against PyTorch's numbers.\n\n";
    md += std::to_string(rows.size()) + " operators: " + std::to_string(counts[OperatorLowering::Kind::Decomposed])
        + " decomposed, " + std::to_string(counts[OperatorLowering::Kind::Kernel]) + " emitted as kernels, "
        + std::to_string(counts[OperatorLowering::Kind::Functionalized]) + " in-place forms, "
        + std::to_string(counts[OperatorLowering::Kind::None]) + " refused, " + std::to_string(functionals)
        + " Python functionals recorded as their pieces; " + std::to_string(tested) + " built by a runtime test.\n\n";
    md += "| operator | from | lowered as | becomes (or why it is refused) | runtime test |\n|---|---|---|---|---|\n";
    md += table;
    if (!extra.empty())
        md += "\n## Other decompositions\n\nOperators the lowering also decomposes (the ATen and edge dialects, "
              "training graphs):\n\n| operator | becomes |\n|---|---|\n"
            + extra;
    return md;
}

} // namespace

class TestDecompositionTable : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyOperatorIsLoweredOrSaysWhyNot()
    {
        QString error;
        const auto rows = readOps(error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(rows.size() > 200);
        std::set<std::string> seen;
        std::string unexplained;
        for (const auto& r : rows) {
            QVERIFY2(seen.insert(r.op).second, ("listed twice: " + r.op).c_str());
            const auto l = operatorLowering(r.op);
            const bool python = r.source == "py";
            if (python && (l.kind != OperatorLowering::Kind::None || r.reason.empty()))
                unexplained += (unexplained.empty() ? "" : ", ") + r.op + " (py: an aten op, or no pieces named)";
            else if (l.kind == OperatorLowering::Kind::None && r.reason.empty() && l.becomes.empty())
                unexplained += (unexplained.empty() ? "" : ", ") + r.op;
        }
        QVERIFY2(unexplained.empty(), ("neither lowered nor refused with a reason in ops.tsv: " + unexplained).c_str());
    }

    void theDocumentIsCurrent()
    {
        QString error;
        const auto rows = readOps(error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const std::string md = generate(rows);
        const QString out = qEnvironmentVariable("PTELENS_DECOMPOSITIONS_TABLE");
        if (!out.isEmpty()) {
            QFile f(out);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QByteArray::fromStdString(md));
            return;
        }
        QFile f(pte::test::testDataDir() + QStringLiteral("/../../docs/decompositions.md"));
        QVERIFY2(f.open(QIODevice::ReadOnly), "docs/decompositions.md is missing: run make decompositions-table");
        QVERIFY2(f.readAll().toStdString() == md,
            "docs/decompositions.md is not what the lowering and the tests say today: run make decompositions-table");
    }
};

QTEST_GUILESS_MAIN(TestDecompositionTable)
#include "tst_decomposition_table.moc"
