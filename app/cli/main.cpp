// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "command.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace {
void printUsage(std::FILE* to)
{
    auto commands = pte::cli::commandRegistry();
    std::sort(commands.begin(), commands.end(),
        [](const auto& a, const auto& b) { return std::string_view(a.name) < std::string_view(b.name); });
    std::fprintf(to,
        "Usage: ptelens-cli <command> [options] [files]\n\nInspect, verify and emit ExecuTorch programs.\n\n"
        "Commands:\n");
    for (const auto& c : commands)
        std::fprintf(to, "  %-10s %s\n", c.name, c.summary);
    std::fprintf(to,
        "\nRun 'ptelens-cli <command> --help' for a command's options.\n"
        "Exit codes: 0 ok, 1 invalid input, 2 usage, 3 internal error.\n");
}
} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("ptelens-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PTELENS_VERSION));
    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 2) {
        printUsage(stderr);
        return pte::cli::ExitUsage;
    }
    const QString name = args.at(1);
    if (name == QLatin1String("--help") || name == QLatin1String("-h") || name == QLatin1String("help")) {
        printUsage(stdout);
        return pte::cli::ExitOk;
    }
    if (name == QLatin1String("--version")) {
        std::printf("ptelens-cli %s\n", PTELENS_VERSION);
        return pte::cli::ExitOk;
    }
    for (const auto& c : pte::cli::commandRegistry()) {
        if (name == QLatin1String(c.name)) {
            QStringList rest = args.mid(2);
            rest.prepend(QStringLiteral("ptelens-cli ") + name);
            return c.run(rest);
        }
    }
    std::fprintf(stderr, "ptelens-cli: unknown command '%s'\n\n", qPrintable(name));
    printUsage(stderr);
    return pte::cli::ExitUsage;
}
