// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli synth OUT --instructions N --constant-bytes B [--methods M]`: writes a synthetic valid program.
#include "command.h"
#include "jsonoutput.h"
#include "printederror.h"
#include "pte/ptewriter.h"
#include "pte/syntheticprogram.h"

#include <QCommandLineParser>

#include <cstdio>
#include <nlohmann/json.hpp>

namespace pte::cli {

namespace {

/** Parses a byte count with an optional K/M/G suffix (powers of 1024). */
bool parseSize(const QString& text, std::uint64_t* out)
{
    QString t = text.trimmed().toUpper();
    std::uint64_t mult = 1;
    if (t.endsWith(QLatin1Char('B')) && t.size() > 1 && !t.at(t.size() - 2).isDigit())
        t.chop(1);
    if (t.endsWith(QLatin1Char('K')))
        mult = 1ULL << 10;
    else if (t.endsWith(QLatin1Char('M')))
        mult = 1ULL << 20;
    else if (t.endsWith(QLatin1Char('G')))
        mult = 1ULL << 30;
    if (mult != 1)
        t.chop(1);
    bool ok = false;
    const qulonglong v = t.toULongLong(&ok);
    if (!ok || (v != 0 && mult > UINT64_MAX / v))
        return false;
    *out = std::uint64_t(v) * mult;
    return true;
}

int runSynth(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Writes a synthetic valid .pte: chains of aten::add.out / aten::mul.out over planned activations, "
        "and constant data in the constant segment (sizes accept K, M, G suffixes)."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("OUT"), QStringLiteral("The .pte file to write."));
    const QCommandLineOption instructionsOpt(
        QStringLiteral("instructions"), QStringLiteral("Total KernelCalls (default 1000)."), QStringLiteral("N"));
    const QCommandLineOption constantOpt(QStringLiteral("constant-bytes"),
        QStringLiteral("Bytes of constant tensor data (default 0)."), QStringLiteral("B"));
    const QCommandLineOption methodsOpt(
        QStringLiteral("methods"), QStringLiteral("Number of methods (default 1)."), QStringLiteral("M"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("Print what was written as JSON."));
    parser.addOptions({ instructionsOpt, constantOpt, methodsOpt, jsonOpt });
    if (const auto done = parseArguments(parser, args, "synth", 1, "exactly one output file"))
        return *done;
    const QStringList pos = parser.positionalArguments();
    pte::SyntheticOptions options;
    if (parser.isSet(instructionsOpt) && !parseSize(parser.value(instructionsOpt), &options.instructions)) {
        std::fprintf(
            stderr, "ptelens-cli synth: invalid --instructions '%s'\n", qPrintable(parser.value(instructionsOpt)));
        return ExitUsage;
    }
    if (parser.isSet(constantOpt) && !parseSize(parser.value(constantOpt), &options.constantBytes)) {
        std::fprintf(
            stderr, "ptelens-cli synth: invalid --constant-bytes '%s'\n", qPrintable(parser.value(constantOpt)));
        return ExitUsage;
    }
    if (parser.isSet(methodsOpt)) {
        bool ok = false;
        const uint m = parser.value(methodsOpt).toUInt(&ok);
        if (!ok || m == 0 || m > 100000) {
            std::fprintf(stderr, "ptelens-cli synth: invalid --methods '%s' (1..100000)\n",
                qPrintable(parser.value(methodsOpt)));
            return ExitUsage;
        }
        options.methods = m;
    }
    const std::string out = pos.front().toStdString();
    auto program = pte::makeSyntheticProgram(options);
    if (!program) {
        printError(program.error());
        return program.error().code == pte::ErrorCode::InvalidInput ? ExitUsage : ExitInternal;
    }
    auto serialized = pte::serializePte(*program);
    if (printedError(serialized))
        return ExitInternal;
    if (auto w = pte::writeSerializedPte(*serialized, out); !w) {
        printError(w.error());
        return ExitInternal;
    }
    if (parser.isSet(jsonOpt)) {
        nlohmann::ordered_json j;
        j["output"] = out;
        j["methods"] = options.methods;
        j["instructions"] = options.instructions;
        j["constant_bytes"] = options.constantBytes;
        j["file_size"] = serialized->totalSize;
        j["program_size"] = serialized->programSize;
        j["segment_base_offset"] = serialized->segmentBaseOffset;
        printJson(j);
    }
    return ExitOk;
}

} // namespace

PTELENS_REGISTER_COMMAND(synth, "synth", "Write a synthetic valid program of a given size", runSynth);

} // namespace pte::cli
