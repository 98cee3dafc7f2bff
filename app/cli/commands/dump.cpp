// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli dump FILE --json`: the whole program as JSON in the shape of
// `flatc --json --strict-json --defaults-json` (see pte/jsondump.h for the documented differences).
// --json is required (it is the only output format); without it the command prints a usage error (exit 2).
// A bundled program (.bpte) prints as flatc prints BP08 files, with `program` decoded (pte/bundledprogram.h).
#include "command.h"
#include "printederror.h"
#include "pte/bundledprogram.h"
#include "pte/jsondump.h"
#include "pte/ptereader.h"

#include <QCommandLineParser>

#include <cstdio>

namespace pte::cli {

namespace {

int runDump(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Prints the whole program as JSON, field for field like flatc --json --strict-json "
                       "--defaults-json; byte payloads are summarized as {size, sha256}."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The .pte file to dump."));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("Print JSON (required)."));
    const QCommandLineOption indentOpt(
        QStringLiteral("indent"), QStringLiteral("Spaces per level (default 2; -1 = one line)."), QStringLiteral("N"));
    parser.addOptions({ jsonOpt, indentOpt });
    if (const auto done = parseArguments(parser, args, "dump", 1, "exactly one file"))
        return *done;
    const QStringList pos = parser.positionalArguments();
    if (!parser.isSet(jsonOpt)) {
        std::fprintf(stderr,
            "ptelens-cli dump: JSON is the only output format; use 'ptelens-cli dump FILE --json' "
            "(or 'ptelens-cli info FILE' for a readable summary)\n");
        return ExitUsage;
    }
    pte::JsonDumpOptions dumpOptions;
    if (parser.isSet(indentOpt)) {
        bool ok = false;
        const int indent = parser.value(indentOpt).toInt(&ok);
        if (!ok || indent < -1 || indent > 16) {
            std::fprintf(
                stderr, "ptelens-cli dump: invalid --indent '%s' (-1..16)\n", qPrintable(parser.value(indentOpt)));
            return ExitUsage;
        }
        dumpOptions.indent = indent;
    }
    const std::string path = pos.front().toStdString();
    pte::ReadOptions options;
    options.findExternalDataNextToFile = false;
    auto file = pte::readPteFile(path, options);
    if (printedError(file))
        return ExitInvalidInput;
    if (const auto& bundled = (*file)->bundled) {
        printOut(pte::bundledProgramToJson(*bundled, *(*file)->program, dumpOptions));
        return ExitOk;
    }
    // Streamed to stdout as it is written (no JSON tree, no whole text in memory).
    bool written = true;
    pte::writeProgramJson(
        *(*file)->program,
        [&written](std::string_view chunk) {
            written = written && std::fwrite(chunk.data(), 1, chunk.size(), stdout) == chunk.size();
        },
        dumpOptions);
    if (std::fflush(stdout) != 0 || !written) {
        std::fprintf(stderr, "ptelens-cli dump: cannot write the output\n");
        return ExitInternal;
    }
    return ExitOk;
}

} // namespace

PTELENS_REGISTER_COMMAND(dump, "dump", "Print the whole program as JSON (flatc-compatible shape)", runDump);

} // namespace pte::cli
