// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli verify FILE [--json] [--ptd DATA]`: every structural and runtime check of a .pte.
// Exit 0 only when the ExecuTorch runtime would accept the file; 1 when it would refuse it or the file
// cannot be read. Each diagnostic is printed to stdout as "file: severity: message (at byte N, field.path)".
#include "command.h"
#include "jsonoutput.h"
#include "pte/ptereader.h"

#include <QCommandLineParser>

#include <cstdio>
#include <nlohmann/json.hpp>

namespace pte::cli {

namespace {

int runVerify(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Runs every check the ExecuTorch runtime makes when loading a .pte, plus layout checks.\n"
                       "Exit 0 when the runtime would accept the file, 1 when it would refuse it."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The .pte file to verify."));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("Print the result as JSON."));
    const QCommandLineOption ptdOpt(QStringLiteral("ptd"),
        QStringLiteral("External data (.ptd) for EXTERNAL tensors (default: a .ptd next to FILE)."),
        QStringLiteral("DATA"));
    parser.addOptions({ jsonOpt, ptdOpt });
    if (const auto done = parseArguments(parser, args, "verify", 1, "exactly one file"))
        return *done;
    const QStringList pos = parser.positionalArguments();
    const std::string path = pos.front().toStdString();
    const bool json = parser.isSet(jsonOpt);
    pte::ReadOptions options;
    if (parser.isSet(ptdOpt))
        options.externalDataPath = parser.value(ptdOpt).toStdString();

    auto file = pte::readPteFile(path, options);
    if (!file) {
        printError(file.error());
        if (json) {
            nlohmann::ordered_json j;
            j["file"] = path;
            j["accepted"] = false;
            nlohmann::ordered_json e;
            e["code"] = pte::errorCodeName(file.error().code);
            e["message"] = file.error().message;
            e["offset"] =
                file.error().offset ? nlohmann::ordered_json(*file.error().offset) : nlohmann::ordered_json(nullptr);
            e["field_path"] = file.error().fieldPath;
            j["error"] = std::move(e);
            printJson(j);
        }
        return ExitInvalidInput;
    }
    const auto& f = **file;
    std::size_t counts[3] = { 0, 0, 0 };
    for (const auto& d : f.diagnostics)
        ++counts[static_cast<int>(d.severity)];
    const bool accepted = f.runtimeWouldAccept();
    if (json) {
        nlohmann::ordered_json j;
        j["file"] = path;
        j["accepted"] = accepted;
        j["errors"] = counts[2];
        j["warnings"] = counts[1];
        j["infos"] = counts[0];
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const auto& d : f.diagnostics)
            list.push_back(diagnosticJson(d));
        j["diagnostics"] = std::move(list);
        printJson(j);
    } else {
        std::string text;
        for (auto d : f.diagnostics) {
            if (d.file.empty())
                d.file = path;
            text += d.toString() + "\n";
        }
        text += path + ": "
            + (accepted ? "OK: the runtime would accept this program"
                        : "REFUSED: the runtime would refuse this program")
            + " (" + std::to_string(counts[2]) + " errors, " + std::to_string(counts[1]) + " warnings)\n";
        printOut(text);
    }
    return accepted ? ExitOk : ExitInvalidInput;
}

} // namespace

PTELENS_REGISTER_COMMAND(verify, "verify", "Check a .pte the way the ExecuTorch runtime does", runVerify);

} // namespace pte::cli
