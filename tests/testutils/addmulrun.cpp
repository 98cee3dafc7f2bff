// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "addmulrun.h"

#include "etdumptestutils.h"
#include "executiontestutils.h"
#include "pte/dumpreader.h"
#include "pte/etdumpjoin.h"
#include "testutils.h"

#include <QFile>

namespace pte::test {

namespace {

QString writeTemp(const QString& name, const std::vector<std::uint8_t>& data)
{
    const QString path = tempDir() + QLatin1Char('/') + name;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(reinterpret_cast<const char*>(data.data()), qsizetype(data.size()));
    return path;
}

} // namespace

AddMulRun writeAddMulRun(const QString& name, bool methodEvent)
{
    auto dump = readDump((testDataDir() + QStringLiteral("/emit/add_mul.json")).toStdString());
    if (!dump)
        return {};
    auto e = emitAndReload((*dump)->methods, name.toStdString());
    if (!e)
        return {};
    const auto& plan = *e->file->program->method("forward");
    std::vector<float> add, mul;
    for (std::size_t i = 0; i < 6; ++i) {
        const auto x = float(0.1 * double(i % 7) + 0.5);
        const auto y = float(0.1 * double((i + 1) % 7) + 0.5);
        add.push_back(x + y);
        mul.push_back((x + y) * 0.5f);
    }
    add[4] += 0.5f;
    EtdumpBuilder b;
    b.loadBlock();
    b.block("Execute");
    for (std::int32_t ins = 0; ins < 2; ++ins) {
        const auto& k = std::get<KernelCall>(plan.chains[0].instructions[std::size_t(ins)].args);
        b.debugTensor(0, ins, ScalarType::Float, { 2, 3 }, 24 * ins);
        b.profile(kernelEventName(plan.operators[std::size_t(k.opIndex)]), 0, ins, 1000 * ins + 1, 1000 * ins + 9);
        b.profile("OPERATOR_CALL", 0, ins, 1000 * ins, 1000 * ins + 10);
    }
    if (methodEvent)
        b.profile("Method::execute", -1, 0, 0, 3000);
    add.insert(add.end(), mul.begin(), mul.end());
    return { QString::fromStdString(e->file->path), writeTemp(name + QStringLiteral(".etdp"), b.bytes()),
        writeTemp(name + QStringLiteral(".bin"), floatBuffer(add)) };
}

} // namespace pte::test
