// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The command registry and the argument and output helpers every ptelens command-line program shares
// (ptelens-cli, and ptelens-bench in bench/cli).
#include "command.h"

#include <QCoreApplication>

#include <cstdio>
#include <iostream>

namespace pte::cli {

std::vector<Command>& commandRegistry()
{
    static std::vector<Command> commands;
    return commands;
}

QCommandLineOption syncOption()
{
    return QCommandLineOption(QStringLiteral("sync"),
        QStringLiteral("Wait until the file is on disk (fsync) even when it is new; replacing a file always does."));
}

pte::SyncPolicy syncPolicy(const QCommandLineParser& parser)
{
    return parser.isSet(QStringLiteral("sync")) ? pte::SyncPolicy::Always : pte::SyncPolicy::WhenReplacing;
}

std::string invocation(const char* command)
{
    std::string text = QCoreApplication::applicationName().toStdString();
    if (command && *command)
        text += std::string(" ") + command;
    return text;
}

void printError(const pte::Error& error)
{
    std::cerr << QCoreApplication::applicationName().toStdString() << ": error: " << error.toString() << '\n';
}

QString helpText(const QCommandLineParser& parser, const char* command)
{
    // Qt names the program by the path it was started with; the usage line names the command instead.
    QString text = parser.helpText();
    const QString usage = QStringLiteral("Usage: ");
    const QString program = QCoreApplication::arguments().value(0);
    if (text.startsWith(usage + program))
        text.replace(usage.size(), program.size(), QString::fromStdString(invocation(command)));
    return text;
}

std::optional<int> parseArguments(QCommandLineParser& parser, const QStringList& args, const char* command,
    qsizetype positionals, const char* expected)
{
    if (!parser.parse(args)) {
        std::fprintf(stderr, "%s: %s\n", invocation(command).c_str(), qPrintable(parser.errorText()));
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        printOut(helpText(parser, command).toStdString());
        return ExitOk;
    }
    if (positionals >= 0 && parser.positionalArguments().size() != positionals) {
        std::fprintf(stderr, "%s: expected %s\n%s", invocation(command).c_str(),
            expected ? expected : "other arguments", qPrintable(helpText(parser, command)));
        return ExitUsage;
    }
    return std::nullopt;
}

void printDiagnostic(const pte::Diagnostic& d) { std::cerr << d.toString() << '\n'; }

void printOut(const std::string& text)
{
    std::cout << text;
    std::cout.flush();
}

} // namespace pte::cli
