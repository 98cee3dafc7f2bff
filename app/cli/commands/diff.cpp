// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli diff A B [--method M] [--json] [--strict] [--etrecord-a R] [--etrecord-b R]`: compares two programs
// (.pte files or graph dumps, emitted first). Exit codes as diff(1): 0 equal, 1 different, 2 usage or unreadable
// input, 3 internal error.
#include "command.h"
#include "pte/programdiff.h"

#include <QCommandLineParser>

#include <cstdio>

namespace pte::cli {

namespace {

/** diff(1)'s exit codes; 3 (ExitInternal) stays an internal error. */
constexpr int DiffEqual = 0;
constexpr int DiffDifferent = 1;
constexpr int DiffTrouble = 2;

int runDiff(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Compares two programs. Each side is a .pte or a graph dump (emitted first with the default options).\n"
        "The default comparison is semantic: value, constant, operator and delegate numbering, segment order and\n"
        "layout do not count, so a program and its rewrite compare equal; --strict reports those too.\n"
        "Exit status: 0 equal, 1 different, 2 usage error or unreadable input, 3 internal error."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("A"), QStringLiteral("The first program (.pte or graph dump)."));
    parser.addPositionalArgument(QStringLiteral("B"), QStringLiteral("The second program (.pte or graph dump)."));
    const QCommandLineOption methodOpt(
        QStringLiteral("method"), QStringLiteral("Compare only this method."), QStringLiteral("M"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("Print the report as JSON."));
    const QCommandLineOption strictOpt(QStringLiteral("strict"),
        QStringLiteral("Also report renumbering, order, segment layout and fields the runtime does not read."));
    const QCommandLineOption etrecordAOpt(QStringLiteral("etrecord-a"),
        QStringLiteral("An ETRecord whose debug handles and delegate maps go with A."), QStringLiteral("ETRECORD"));
    const QCommandLineOption etrecordBOpt(QStringLiteral("etrecord-b"),
        QStringLiteral("An ETRecord whose debug handles and delegate maps go with B."), QStringLiteral("ETRECORD"));
    parser.addOptions({ methodOpt, jsonOpt, strictOpt, etrecordAOpt, etrecordBOpt });
    if (const auto done = parseArguments(parser, args, "diff", 2, "two programs, A and B"))
        return *done;
    const QStringList pos = parser.positionalArguments();

    pte::DiffSideOptions optionsA;
    pte::DiffSideOptions optionsB;
    optionsA.etrecordPath = parser.value(etrecordAOpt).toStdString();
    optionsB.etrecordPath = parser.value(etrecordBOpt).toStdString();
    auto a = pte::openDiffSide(pos.at(0).toStdString(), optionsA);
    if (!a) {
        printError(a.error());
        return a.error().code == pte::ErrorCode::Internal ? int(ExitInternal) : DiffTrouble;
    }
    auto b = pte::openDiffSide(pos.at(1).toStdString(), optionsB);
    if (!b) {
        printError(b.error());
        return b.error().code == pte::ErrorCode::Internal ? int(ExitInternal) : DiffTrouble;
    }
    pte::DiffOptions options;
    options.strict = parser.isSet(strictOpt);
    options.method = parser.value(methodOpt).toStdString();
    auto diff = pte::diffPrograms(*a, *b, options);
    if (!diff) {
        printError(diff.error());
        switch (diff.error().code) {
        case pte::ErrorCode::InvalidInput:
        case pte::ErrorCode::Io:
            return DiffTrouble;
        default:
            return ExitInternal;
        }
    }
    printOut(parser.isSet(jsonOpt) ? pte::diffReportJson(*diff) : pte::diffReportText(*diff));
    return diff->equal() ? DiffEqual : DiffDifferent;
}

} // namespace

PTELENS_REGISTER_COMMAND(
    diff, "diff", "Compare two programs (.pte or graph dumps); exit 0 equal, 1 different", runDiff);

} // namespace pte::cli
