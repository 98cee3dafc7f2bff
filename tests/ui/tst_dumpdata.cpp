// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Sample inputs (Signature view) and delegate named data (Delegates view) read from graph dumps.
#include "models/nameddatamodel.h"
#include "models/roles.h"
#include "models/sampleinputmodel.h"
#include "pte/dumpreader.h"
#include "testutils.h"
#include "uifixtures.h"

#include <QAbstractItemModelTester>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <cstring>

using namespace pte::ui;
using pte::ui::fixtures::cell;

namespace {

pte::SymInt sym(std::int64_t v) { return pte::SymInt { v, {}, {} }; }

/** A contiguous tensor leaf holding `values` converted to T. */
template <typename T>
pte::SampleInput tensorLeaf(
    const std::string& path, pte::ScalarType dtype, std::vector<std::int64_t> sizes, const std::vector<double>& values)
{
    pte::SampleInput leaf;
    leaf.path = path;
    leaf.kind = pte::SampleInput::Kind::Tensor;
    leaf.tensor.meta.dtype = dtype;
    std::int64_t stride = 1;
    leaf.tensor.meta.strides.resize(sizes.size());
    for (std::size_t i = sizes.size(); i-- > 0;) {
        leaf.tensor.meta.strides[i] = sym(stride);
        stride *= sizes[i];
    }
    for (const auto s : sizes)
        leaf.tensor.meta.sizes.push_back(sym(s));
    std::vector<std::uint8_t> bytes(values.size() * sizeof(T));
    for (std::size_t i = 0; i < values.size(); ++i) {
        const T v = static_cast<T>(values[i]);
        std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
    }
    leaf.tensor.data = pte::Bytes::fromVector(std::move(bytes));
    leaf.tensor.source = "model.pt2:data/sample_inputs/model.pt:" + path;
    return leaf;
}

std::shared_ptr<Snapshot> dumpSnapshot(std::shared_ptr<const pte::ExportedProgram> program)
{
    auto snap = std::make_shared<Snapshot>();
    snap->dumpMethods.push_back(DumpMethod { "forward", "forward", "model.pt2", std::move(program) });
    snap->finalize();
    return snap;
}

std::shared_ptr<const pte::DumpSet> readOrFail(const QString& path)
{
    auto r = pte::readDump(path.toStdString());
    if (!r) {
        qWarning("%s", r.error().toString().c_str());
        return nullptr;
    }
    return *r;
}

} // namespace

class TestDumpData : public QObject
{
    Q_OBJECT
private:
private Q_SLOTS:
    void init() { fixtures::failOnQtWarnings(); }

    void sampleInputsOfCorpusArchive()
    {
        PTE_REQUIRE_CORPUS();
        const auto set = readOrFail(pte::test::corpusPath(QStringLiteral("dumps/et_pt2_archive_linear.pt2")));
        QVERIFY(set);
        QCOMPARE(set->methods.size(), std::size_t(1));
        QVERIFY(set->methods.front().second->sampleInputs);
        auto snap = std::make_shared<Snapshot>();
        snap->dumpMethods.push_back(DumpMethod {
            set->methods.front().first, set->methods.front().first, set->path, set->methods.front().second });
        snap->finalize();

        SampleInputModel model;
        fixtures::attachModelTester(&model);
        QSignalSpy noteChanged(&model, &SampleInputModel::noteChanged);
        model.setMethod(snap, QString::fromStdString(set->methods.front().first));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), int(SampleInputModel::ColumnCount));
        QCOMPARE(cell(model, 0, SampleInputModel::InputColumn), QStringLiteral("x"));
        QCOMPARE(cell(model, 0, SampleInputModel::PathColumn), QStringLiteral("args[0]"));
        QCOMPARE(cell(model, 0, SampleInputModel::KindColumn), QStringLiteral("tensor"));
        QCOMPARE(cell(model, 0, SampleInputModel::DTypeColumn), QStringLiteral("f32"));
        QCOMPARE(cell(model, 0, SampleInputModel::ShapeColumn), QStringLiteral("[3]"));
        // The shortest text that reads back as the same float32: 0.2309668 is the float 0.23096681f.
        const QString values = cell(model, 0, SampleInputModel::ValuesColumn);
        QCOMPARE(values, QStringLiteral("0.2309668, 0.6930773, -0.26686057"));
        const QStringList parts = values.split(QStringLiteral(", "));
        QCOMPARE(parts.size(), 3);
        QCOMPARE(parts[0].toFloat(), 0.23096681f);
        QCOMPARE(parts[1].toFloat(), 0.6930773f);
        QCOMPARE(parts[2].toFloat(), -0.26686057f);
        QCOMPARE(noteChanged.count(), 1);
        QCOMPARE(model.note(),
            QStringLiteral("Sample inputs from et_pt2_archive_linear.pt2:linear_3/data/sample_inputs/model.pt"));
    }

    void sampleInputsMatchArgsInOrderAndKwargsByName()
    {
        auto ep = fixtures::makeExportedProgram();
        pte::InputSpec mask { pte::InputKind::UserInput, pte::Argument::tensor("mask"), "", {}, {} };
        ep->signature.inputSpecs.push_back(mask);
        pte::SampleInputs sample;
        sample.source = "model.pt2:data/sample_inputs/model.pt";
        sample.leaves.push_back(
            tensorLeaf<float>("args[0]", pte::ScalarType::Float, { 2, 3 }, { 0, 1.5, -2, 0.1, 1e-3, 6 }));
        sample.leaves.push_back(
            tensorLeaf<std::int64_t>("args[1]", pte::ScalarType::Long, { 10 }, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 }));
        sample.leaves.push_back(tensorLeaf<std::uint8_t>("kwargs['mask']", pte::ScalarType::Bool, { 2 }, { 1, 0 }));
        pte::SampleInput scale;
        scale.path = "kwargs['scale']";
        scale.kind = pte::SampleInput::Kind::Float;
        scale.floatValue = 0.25;
        sample.leaves.push_back(scale);
        ep->sampleInputs = sample;

        SampleInputModel model;
        fixtures::attachModelTester(&model);
        model.setMethod(dumpSnapshot(ep), QStringLiteral("forward"));
        QCOMPARE(model.note(), QStringLiteral("Sample inputs from model.pt2:data/sample_inputs/model.pt"));
        QCOMPARE(model.rowCount(), 4);
        // User inputs in signature order: x takes args[0], mask its keyword.
        QCOMPARE(cell(model, 0, SampleInputModel::InputColumn), QStringLiteral("x"));
        QCOMPARE(cell(model, 0, SampleInputModel::PathColumn), QStringLiteral("args[0]"));
        QCOMPARE(cell(model, 0, SampleInputModel::ShapeColumn), QStringLiteral("[2, 3]"));
        QCOMPARE(cell(model, 0, SampleInputModel::ValuesColumn), QStringLiteral("0, 1.5, -2, 0.1, 0.001, 6"));
        QCOMPARE(cell(model, 1, SampleInputModel::InputColumn), QStringLiteral("mask"));
        QCOMPARE(cell(model, 1, SampleInputModel::PathColumn), QStringLiteral("kwargs['mask']"));
        QCOMPARE(cell(model, 1, SampleInputModel::DTypeColumn), QStringLiteral("bool"));
        QCOMPARE(
            cell(model, 1, SampleInputModel::ValuesColumn), QStringLiteral("True, False")); // as Python prints bools
        // Leaves no user input takes follow, without an input name; ten elements show eight and "…".
        QCOMPARE(cell(model, 2, SampleInputModel::InputColumn), QString());
        QCOMPARE(cell(model, 2, SampleInputModel::PathColumn), QStringLiteral("args[1]"));
        QCOMPARE(cell(model, 2, SampleInputModel::DTypeColumn), QStringLiteral("i64"));
        QCOMPARE(cell(model, 2, SampleInputModel::ValuesColumn), QStringLiteral("0, 1, 2, 3, 4, 5, 6, 7, …"));
        QCOMPARE(cell(model, 3, SampleInputModel::PathColumn), QStringLiteral("kwargs['scale']"));
        QCOMPARE(cell(model, 3, SampleInputModel::KindColumn), QStringLiteral("float"));
        QCOMPARE(cell(model, 3, SampleInputModel::ValuesColumn), QStringLiteral("0.25"));
        QCOMPARE(cell(model, 3, SampleInputModel::DTypeColumn), QString());
    }

    void sampleInputsNotes()
    {
        SampleInputModel model;
        fixtures::attachModelTester(&model);
        QSignalSpy noteChanged(&model, &SampleInputModel::noteChanged);
        // A dump without sample inputs.
        model.setMethod(dumpSnapshot(fixtures::makeExportedProgram()), QStringLiteral("forward"));
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.note(), QStringLiteral("The dump has no sample inputs."));
        // A method of a .pte without a dump.
        model.setMethod(fixtures::makeSnapshot(), QStringLiteral("get_answer"));
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.note(), QStringLiteral("No graph dump for this method: sample inputs come from a dump."));
        // A user input without a leaf.
        auto ep = fixtures::makeExportedProgram();
        ep->sampleInputs = pte::SampleInputs { "m.pt2:s.pt", {} };
        model.setMethod(dumpSnapshot(ep), QStringLiteral("forward"));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(cell(model, 0, SampleInputModel::InputColumn), QStringLiteral("x"));
        QCOMPARE(cell(model, 0, SampleInputModel::KindColumn), QStringLiteral("(no sample)"));
        QCOMPARE(model.note(), QStringLiteral("The dump's sample inputs are empty (m.pt2:s.pt)."));
        QCOMPARE(noteChanged.count(), 3);
        model.setMethod(nullptr, QString());
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.note(), QString());
    }

    void namedDataOfLoweredModules()
    {
        const auto set = readOrFail(pte::test::testDataDir() + QStringLiteral("/dumps/delegate_named_data.json"));
        QVERIFY(set);
        QCOMPARE(set->methods.size(), std::size_t(1));
        auto snap = std::make_shared<Snapshot>();
        snap->dumpMethods.push_back(
            DumpMethod { "forward", set->methods.front().first, set->path, set->methods.front().second });
        snap->finalize();

        NamedDataModel model;
        fixtures::attachModelTester(&model);
        model.setMethod(snap, QStringLiteral("forward"));
        QCOMPARE(model.rowCount(), 4);
        const QStringList expected[] = {
            { "lowered_module_0", "XnnpackBackend", "pte", "weights_0", "4 B", "0", "16" },
            { "lowered_module_0", "XnnpackBackend", "model.ptd", "fc.bias", "3 B", "2", "64" },
            { "lowered_module_0", "XnnpackBackend", "model.ptd", "fc.weight", "8 B", "1", "64" },
            { "lowered_module_0", "XnnpackBackend", "shared.ptd", "weights_0_copy", "4 B", "0", "32" },
        };
        for (int r = 0; r < 4; ++r) {
            QStringList row;
            for (int c = 0; c < NamedDataModel::ColumnCount; ++c)
                row << cell(model, r, c);
            QCOMPARE(row, expected[r]);
        }
        QCOMPARE(model.index(2, NamedDataModel::SizeColumn).data(SortRole).toULongLong(), 8ULL);
        QCOMPARE(cell(model, 1, NamedDataModel::StoreColumn, Qt::ToolTipRole),
            QStringLiteral("External data file model.ptd (loaded next to the program)"));

        // Without a dump (a .pte's method) the table is empty.
        model.setMethod(fixtures::makeSnapshot(), QStringLiteral("get_answer"));
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestDumpData)
#include "tst_dumpdata.moc"
