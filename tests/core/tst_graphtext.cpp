// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// How dump values read as text (pte/graphtext.h), shared by `ptelens-cli graph` and the GUI: Python's spelling.
#include "pte/graphtext.h"
#include "testutils.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace pte;

namespace {
Argument arg(ArgKind kind)
{
    Argument a;
    a.kind = kind;
    return a;
}
SymInt sym(std::optional<std::int64_t> v, std::string expr = {}) { return SymInt { v, std::move(expr), {} }; }
} // namespace

Q_DECLARE_METATYPE(pte::Argument)

class TestGraphText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void argumentText_data()
    {
        QTest::addColumn<Argument>("argument");
        QTest::addColumn<QString>("text");
        QTest::addRow("none") << arg(ArgKind::None) << "None";
        QTest::addRow("tensor") << Argument::tensor("x") << "x";
        Argument absent = arg(ArgKind::OptionalTensor);
        absent.names = { "" };
        QTest::addRow("absent optional tensor") << absent << "None";
        Argument tensors = arg(ArgKind::OptionalTensors);
        tensors.names = { "a", "", "b" };
        QTest::addRow("optional tensors") << tensors << "[a, None, b]";
        Argument i = arg(ArgKind::Int);
        i.ints = { -3 };
        QTest::addRow("int") << i << "-3";
        Argument ints = arg(ArgKind::Ints);
        ints.ints = { 1, 2 };
        QTest::addRow("ints") << ints << "[1, 2]";
        Argument f = arg(ArgKind::Float);
        f.floats = { 0.1 };
        QTest::addRow("float, shortest round trip") << f << "0.1";
        Argument inf = arg(ArgKind::Floats);
        inf.floats = { std::numeric_limits<double>::infinity(), -2.5 };
        QTest::addRow("floats with inf") << inf << "[inf, -2.5]";
        Argument b = arg(ArgKind::Bools);
        b.bools = { true, false };
        QTest::addRow("bools, Python spelling") << b << "[True, False]";
        Argument dtype = arg(ArgKind::ScalarType);
        dtype.scalarType = ScalarType::Float;
        QTest::addRow("dtype") << dtype << "f32";
        Argument s = arg(ArgKind::String);
        s.strings = { std::string(60, 'a') };
        QTest::addRow("long string cut") << s << QString(QLatin1Char('"') + QString(45, QLatin1Char('a')) + "...\"");
        Argument syms = arg(ArgKind::SymInts);
        syms.syms = { sym(4), sym(std::nullopt, "s0") };
        QTest::addRow("sym ints") << syms << "[4, s0]";
        Argument dev = arg(ArgKind::Device);
        dev.strings = { "cuda" };
        dev.ints = { 1 };
        QTest::addRow("device") << dev << "cuda:1";
        Argument dict = arg(ArgKind::StringToArgument);
        dict.strings = { "k" };
        dict.children = { i };
        QTest::addRow("dict") << dict << "{k: -3}";
    }
    void argumentText()
    {
        QFETCH(Argument, argument);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(pte::argumentText(argument)), text);
    }

    void elementText_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QString>("text");
        QTest::addRow("bool") << 1.0 << int(ScalarType::Bool) << "True";
        QTest::addRow("i64") << -4.0 << int(ScalarType::Long) << "-4";
        // float32(0.1) printed as Python prints a float32 element (numpy repr): the shortest text for that f32.
        QTest::addRow("f32") << double(0.1f) << int(ScalarType::Float) << "0.1";
        QTest::addRow("f64") << double(0.1f) << int(ScalarType::Double) << "0.10000000149011612";
        QTest::addRow("f16 digits") << 0.33325195 << int(ScalarType::Half) << "0.3333";
        QTest::addRow("nan") << std::nan("") << int(ScalarType::Float) << "nan";
        QTest::addRow("-inf") << -std::numeric_limits<double>::infinity() << int(ScalarType::Double) << "-inf";
    }
    void elementText()
    {
        QFETCH(double, value);
        QFETCH(int, dtype);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(pte::elementText(value, ScalarType(dtype))), text);
    }

    void elementsTextCutsAfterMaxShown()
    {
        const std::vector<double> v { 1, 2, 3 };
        QCOMPARE(pte::elementsText(v, ScalarType::Long, 8), std::string("1, 2, 3"));
        QCOMPARE(pte::elementsText(v, ScalarType::Long, 2), std::string("1, 2, …"));
    }

    void tensorMetaText()
    {
        TensorMeta m;
        m.dtype = ScalarType::Float;
        m.sizes = { sym(2), sym(std::nullopt, "s0") };
        QCOMPARE(pte::tensorMetaText(m), std::string("f32[2, s0]"));
        m.deviceType = "cuda";
        m.deviceIndex = 0;
        QCOMPARE(pte::tensorMetaText(m), std::string("f32[2, s0]@cuda:0"));
    }

    void nnModulePaths_data()
    {
        QTest::addColumn<QString>("stack");
        QTest::addColumn<QStringList>("paths");
        QTest::newRow("empty") << QString() << QStringList();
        QTest::newRow("root only") << QStringLiteral("L__self__,,M") << QStringList();
        QTest::newRow("root and child") << QStringLiteral("L__self__,,M;L__self__lin,lin,torch.nn.Linear")
                                        << QStringList { QStringLiteral("lin") };
        // A comma inside brackets belongs to the path: the profile table split it there before, the Graph view did
        // not; both now read "layers.0.f(x, y)".
        QTest::newRow("comma inside parentheses")
            << QStringLiteral("a,layers.0,T;b,layers.0.f(x, y),U")
            << QStringList { QStringLiteral("layers.0"), QStringLiteral("layers.0.f(x, y)") };
        QTest::newRow("separators inside brackets")
            << QStringLiteral("k,blocks[0;1],T;m,heads{a,b},V")
            << QStringList { QStringLiteral("blocks[0;1]"), QStringLiteral("heads{a,b}") };
        QTest::newRow("entry without a path") << QStringLiteral("k;m,enc,E;") << QStringList { QStringLiteral("enc") };
    }
    void nnModulePaths()
    {
        QFETCH(QString, stack);
        QFETCH(QStringList, paths);
        QStringList got;
        for (const auto& p : pte::nnModulePaths(stack.toStdString()))
            got << QString::fromStdString(p);
        QCOMPARE(got, paths);
    }
};

QTEST_GUILESS_MAIN(TestGraphText)
#include "tst_graphtext.moc"
