// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// `ptelens-cli device PROGRAM --runner TEMPLATE [--inputs FILE.json] [--reference-inputs SPEC] [--timeout SECONDS]
// [--keep] [--json|--tsv|--csv]`: runs a program on the user's runner (ExecuTorch's executor_runner on this machine,
// an adb sequence for a phone, ...): writes the program (a .pte as it is, a graph dump emitted first) and its inputs
// to a temporary folder, runs TEMPLATE with its placeholders replaced by their paths (`sh -c`, in a process group of
// its own; its output goes to stderr as it comes), then reads the ETDump the command left and prints it joined to the
// program with the reference interpreter's values beside the device's: what `ptelens-cli profile ETDUMP --program
// PROGRAM --reference-inputs SPEC` prints. Ctrl-C (SIGINT, SIGTERM) and --timeout end the command's whole group.
// Exit codes: 0 the command ran and its ETDump joined the program; 1 invalid input (an unreadable program or inputs
// file, an unreadable ETDump, or one that does not match the program: its rows are still printed, unjoined);
// 2 usage (a template with an unknown placeholder or without {pte}); 3 internal error (the temporary folder or the
// program could not be written); 5 the command failed (non-zero exit, killed by a signal), was interrupted or timed
// out: its last output lines are printed; 6 the command exited 0 but left no ETDump at {etdump}.
#include "command.h"
#include "printederror.h"
#include "process/runnerjob.h"
#include "pte/bundledprogram.h"
#include "pte/emitter.h"
#include "pte/mappedfile.h"
#include "pte/programdiff.h"
#include "pte/ptewriter.h"
#include "pte/referenceinputs.h"
#include "pte/runnertemplate.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFile>
#include <QSocketNotifier>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <optional>
#include <unistd.h>

namespace pte::cli {

namespace {

constexpr const char* kCommand = "device";

/** Ctrl-C while the command runs: the signal handler only writes a byte, the event loop cancels the run. */
int g_signalPipe[2] = { -1, -1 };

extern "C" void onSignal(int signal)
{
    const char byte = char(signal);
    [[maybe_unused]] const auto written = ::write(g_signalPipe[1], &byte, 1);
}

QString placeholderHelp()
{
    QString text = QStringLiteral("The command to run, for `sh -c`, with placeholders replaced by shell-quoted paths "
                                  "in the run's temporary folder (default: $PTELENS_RUNNER):");
    for (const auto& p : pte::runnerPlaceholders())
        text += QStringLiteral(" {%1}: %2").arg(QLatin1String(p.name), QString::fromUtf8(p.meaning));
    return text + QStringLiteral(" Write {{ and }} for literal braces; ${VAR} is the shell's.");
}

int runDevice(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs a program on your runner and prints the ETDump it wrote joined to the program, with ptelens' reference "
        "interpreter's values beside the device's (the `profile` command's output). PROGRAM is a .pte (written as it "
        "is) or a graph dump (emitted with the default options first). Example: ptelens-cli device model.pte --runner "
        "'etrt_runner --etdump {etdump} --debug-buffer {debug_buffer} --debug-level intermediates {pte}'"));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("PROGRAM"), QStringLiteral("The program: a .pte or a graph dump."));
    const QCommandLineOption runnerOpt(QStringLiteral("runner"), placeholderHelp(), QStringLiteral("TEMPLATE"));
    const QCommandLineOption inputsOpt(QStringLiteral("inputs"),
        QStringLiteral("Input values, an etrt_runner --inputs JSON file: copied to {inputs}, and the reference "
                       "interpreter's inputs (default: the --reference-inputs values at {inputs}; \"{}\", the runner's "
                       "pattern fill, for pattern)."),
        QStringLiteral("FILE.json"));
    const QCommandLineOption referenceOpt(QStringLiteral("reference-inputs"),
        QStringLiteral("The inputs the run used, for the reference interpreter, as `profile --reference-inputs` "
                       "takes them: pattern, ones, zeros, bundled[:N] or FILE.json (default: the --inputs file, else "
                       "pattern)."),
        QStringLiteral("SPEC"));
    const QCommandLineOption timeoutOpt(QStringLiteral("timeout"),
        QStringLiteral("End the command (its whole process group) after this many seconds (default: no limit)."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption keepOpt(
        QStringLiteral("keep"), QStringLiteral("Keep the run's temporary folder (its path is printed to stderr)."));
    const QCommandLineOption jsonOpt(
        QStringLiteral("json"), QStringLiteral("Print the join as JSON (profile --json)."));
    const QCommandLineOption tsvOpt(QStringLiteral("tsv"), QStringLiteral("Print the table as tab-separated values."));
    const QCommandLineOption csvOpt(QStringLiteral("csv"), QStringLiteral("Print the table as CSV."));
    parser.addOptions({ runnerOpt, inputsOpt, referenceOpt, timeoutOpt, keepOpt, jsonOpt, tsvOpt, csvOpt });
    if (const auto done = parseArguments(parser, args, kCommand, 1, "exactly one program"))
        return *done;
    auto usage = [](const std::string& message) {
        std::fprintf(stderr, "%s: %s\n", invocation(kCommand).c_str(), message.c_str());
        return ExitUsage;
    };
    const QString templ = parser.isSet(runnerOpt) ? parser.value(runnerOpt) : qEnvironmentVariable("PTELENS_RUNNER");
    if (templ.isEmpty())
        return usage("give the runner's command template with --runner TEMPLATE (or $PTELENS_RUNNER)");
    int timeoutMs = 0;
    if (parser.isSet(timeoutOpt)) {
        bool ok = false;
        const double seconds = parser.value(timeoutOpt).toDouble(&ok);
        if (!ok || seconds <= 0 || seconds > 24 * 3600.0)
            return usage("--timeout takes a number of seconds, more than 0");
        timeoutMs = int(seconds * 1000);
    }
    if (int(parser.isSet(jsonOpt)) + int(parser.isSet(tsvOpt)) + int(parser.isSet(csvOpt)) > 1)
        return usage("--json, --tsv and --csv exclude each other");
    const QString inputs = parser.value(inputsOpt);
    const QString reference = parser.isSet(referenceOpt) ? parser.value(referenceOpt)
        : inputs.isEmpty()                               ? QStringLiteral("pattern")
                                                         : inputs;
    const auto spec = pte::ReferenceInputSpec::parse(reference.toStdString());
    if (!spec)
        return usage(spec.error().message);

    // The template first: a typo is a usage error before anything is read or written.
    if (auto checked = pte::expandRunnerTemplate(templ.toStdString(), pte::RunnerPaths {}); !checked)
        return usage(checked.error().message);

    // The program: a .pte (or bundled program) as it is, a graph dump emitted first.
    const QString path = parser.positionalArguments().front();
    auto side = pte::openDiffSide(path.toStdString());
    if (printedError(side))
        return ExitInvalidInput;

    // Without an inputs file, {inputs} holds the reference inputs (a bundled test case, a fill rule's values), so that
    // the runner runs on what the interpreter is given.
    QByteArray inputsJson;
    if (inputs.isEmpty())
        if (const auto text = pte::runnerInputsJson(
                *spec, *side->program, side->file && side->file->bundled ? side->file->bundled.get() : nullptr))
            inputsJson = QByteArray::fromStdString(*text);
    pte::process::RunnerJob job;
    auto command = job.prepare(templ, inputs, inputsJson);
    if (!command) {
        printError(command.error());
        return command.error().code == pte::ErrorCode::InvalidInput ? ExitUsage
            : inputs.isEmpty()                                      ? ExitInternal
                                                                    : ExitInvalidInput;
    }
    job.setKeepFolder(parser.isSet(keepOpt));
    job.setTimeout(timeoutMs);
    const QString programCopy = QString::fromStdString(job.paths().pte);
    QString profileProgram = path; // what the join reads: the file given, or the emitted copy
    if (side->emitted) {
        pte::WriteOptions write = side->emitted->serialize.write;
        if (auto w = pte::writePte(*side->program, job.paths().pte, write); !w) {
            printError(w.error());
            return ExitInternal;
        }
        profileProgram = programCopy;
        std::fprintf(stderr, "%s: %s is a graph dump: emitted with the default options\n", invocation(kCommand).c_str(),
            qPrintable(path));
    } else if (side->file && side->file->bundled) {
        // A bundled program: the runner gets the program inside (runners load programs, not test-case wrappers).
        const pte::Bytes inner = side->file->bundled->program();
        if (auto w = pte::writeFileAtomically(programCopy.toStdString(), inner.span()); !w) {
            printError(w.error());
            return ExitInternal;
        }
        std::fprintf(stderr, "%s: %s is a bundled program: the program inside is run\n", invocation(kCommand).c_str(),
            qPrintable(path));
    } else if (!QFile::copy(path, programCopy)) {
        printError(pte::makeError(pte::ErrorCode::Io, programCopy.toStdString() + ": cannot copy the program there"));
        return ExitInternal;
    }
    std::fprintf(stderr, "%s: folder %s\n%s: running %s\n", invocation(kCommand).c_str(), qPrintable(job.folder()),
        invocation(kCommand).c_str(), qPrintable(job.command()));

    // Run it: output to stderr as it comes (stdout is the report), Ctrl-C ends the command's group.
    QEventLoop loop;
    std::optional<pte::process::RunnerOutcome> outcome;
    QObject::connect(&job, &pte::process::RunnerJob::output, &loop, [](const QString& text, bool) {
        std::fputs(text.toUtf8().constData(), stderr);
        std::fflush(stderr);
    });
    QObject::connect(&job, &pte::process::RunnerJob::finished, &loop, [&](const pte::process::RunnerOutcome& o) {
        outcome = o;
        loop.quit();
    });
    std::unique_ptr<QSocketNotifier> signalNotifier;
    struct sigaction previous[2] = {};
    const bool handleSignals = ::pipe(g_signalPipe) == 0;
    if (handleSignals) {
        signalNotifier = std::make_unique<QSocketNotifier>(g_signalPipe[0], QSocketNotifier::Read);
        QObject::connect(signalNotifier.get(), &QSocketNotifier::activated, &loop, [&] {
            char byte = 0;
            [[maybe_unused]] const auto got = ::read(g_signalPipe[0], &byte, 1);
            std::fprintf(stderr, "%s: interrupted: ending the command's process group\n", invocation(kCommand).c_str());
            job.cancel();
        });
        struct sigaction action = {};
        action.sa_handler = onSignal;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGINT, &action, &previous[0]);
        ::sigaction(SIGTERM, &action, &previous[1]);
    }
    job.start();
    if (!outcome)
        loop.exec();
    if (handleSignals) {
        ::sigaction(SIGINT, &previous[0], nullptr);
        ::sigaction(SIGTERM, &previous[1], nullptr);
        signalNotifier.reset();
        ::close(g_signalPipe[0]);
        ::close(g_signalPipe[1]);
    }
    if (parser.isSet(keepOpt))
        std::fprintf(stderr, "%s: kept %s\n", invocation(kCommand).c_str(), qPrintable(job.folder()));

    using Result = pte::process::RunnerOutcome::Result;
    if (outcome->result != Result::Ok) {
        std::fprintf(stderr, "%s: error: %s\n", invocation(kCommand).c_str(), qPrintable(outcome->message));
        if (outcome->result == Result::CommandFailed && !outcome->lastLines.isEmpty()) {
            std::fprintf(stderr, "%s: its last output lines:\n", invocation(kCommand).c_str());
            for (const auto& line : outcome->lastLines)
                std::fprintf(stderr, "  %s\n", qPrintable(line));
        }
        return outcome->result == Result::NoEtdump ? ExitNoEtdump : ExitRunnerFailed;
    }

    // The ETDump, joined: the profile command's report.
    QStringList profileArgs { QStringLiteral("ptelens-cli profile"), outcome->etdumpPath, QStringLiteral("--program"),
        profileProgram, QStringLiteral("--reference-inputs"), reference };
    if (!outcome->debugBufferPath.isEmpty())
        profileArgs << QStringLiteral("--debug-buffer") << outcome->debugBufferPath;
    for (const auto* opt : { &jsonOpt, &tsvOpt, &csvOpt })
        if (parser.isSet(*opt))
            profileArgs << QStringLiteral("--") + opt->names().front();
    for (const auto& c : commandRegistry())
        if (std::string_view(c.name) == "profile")
            return c.run(profileArgs);
    printError(pte::makeError(pte::ErrorCode::Internal, "the profile command is missing"));
    return ExitInternal;
}

} // namespace

PTELENS_REGISTER_COMMAND(device, "device",
    "Run a program on your runner (a command template) and print its ETDump joined to the program", runDevice);

} // namespace pte::cli
