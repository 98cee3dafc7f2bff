// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/diagnostic.h"
#include "pte/mappedfile.h"
#include "pte/result.h"

#include <QCommandLineParser>
#include <QStringList>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pte::cli {

/** Stable exit codes of ptelens-cli (and ptelens-bench). */
enum ExitCode : int
{
    ExitOk = 0,
    ExitInvalidInput = 1, ///< bad or refused input file (or verify found runtime errors)
    ExitUsage = 2, ///< wrong arguments
    ExitInternal = 3, ///< a bug or an I/O failure writing output
    ExitUnsupported = 4, ///< `run`: the reference interpreter lacks an operator (or delegate, dtype) the program needs
    ExitRunnerFailed = 5, ///< `device`: the runner command failed (non-zero exit, signal), was interrupted or timed out
    ExitNoEtdump = 6, ///< `device`: the runner command exited 0 but left no ETDump at {etdump}
};

/**
 * One subcommand. Each lives in commands/<name>.cpp and registers itself with PTELENS_REGISTER_COMMAND.
 * `run` receives the arguments after the subcommand name (argv[0] is "ptelens-cli <name>").
 */
struct Command
{
    const char* name;
    const char* summary;
    std::function<int(const QStringList& args)> run;
};

std::vector<Command>& commandRegistry();

struct CommandRegistrar
{
    explicit CommandRegistrar(Command c) { commandRegistry().push_back(std::move(c)); }
};

#define PTELENS_REGISTER_COMMAND(ident, name, summary, fn)                                                             \
    static const ::pte::cli::CommandRegistrar s_register_##ident                                                       \
    {                                                                                                                  \
        ::pte::cli::Command { name, summary, fn }                                                                      \
    }

/**
 * "<program> <command>", the name messages start with: the program is QCoreApplication::applicationName()
 * ("ptelens-cli", "ptelens-bench"); a null or empty `command` gives the program alone.
 */
std::string invocation(const char* command);

/**
 * Parses a subcommand's arguments. Handles the parse error (usage message, ExitUsage) and --help (help text,
 * ExitOk); with `positionals` >= 0 also checks the number of positional arguments, saying what was `expected`.
 * @returns the exit code to return now, or std::nullopt to go on.
 */
std::optional<int> parseArguments(QCommandLineParser& parser, const QStringList& args, const char* command,
    qsizetype positionals = -1, const char* expected = nullptr);

/** The parser's help text with the usage line naming invocation(command) (not the path it was started with). */
QString helpText(const QCommandLineParser& parser, const char* command);

/** `--sync`, shared by the commands that save a file: wait for the disk even when the file is new. */
QCommandLineOption syncOption();
/** The save policy `--sync` (syncOption()) selects. */
pte::SyncPolicy syncPolicy(const QCommandLineParser& parser);

/** Prints "<program>: error: <error>" to stderr; the message already names the file. */
void printError(const pte::Error& error);
/** Prints a diagnostic line to stderr. */
void printDiagnostic(const pte::Diagnostic& d);
/** Writes text to stdout (UTF-8), flushing. */
void printOut(const std::string& text);

} // namespace pte::cli
