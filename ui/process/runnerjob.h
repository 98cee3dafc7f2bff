// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "process/shellcommand.h"
#include "pte/result.h"
#include "pte/runnertemplate.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace pte::process {

/** How a run on the user's runner ended, for the Run dialog and `ptelens-cli device`. */
struct RunnerOutcome
{
    enum class Result
    {
        Ok, ///< the command exited 0 and left the ETDump
        CommandFailed, ///< the command exited non-zero, was killed by a signal, or could not start
        NoEtdump, ///< the command exited 0 but left no ETDump at {etdump}
        Cancelled, ///< cancel() ended it (its whole process group)
        TimedOut, ///< it ran longer than the timeout and was ended as cancel() ends it
    };
    Result result = Result::CommandFailed;
    ShellExit exit;
    /** One sentence: "The command exited with exit code 2.", "The command exited 0 but wrote no ETDump at PATH." */
    QString message;
    QString etdumpPath; ///< Ok: the ETDump the command left
    QString debugBufferPath; ///< the debug buffer, when the command left one at {debug_buffer}; else empty
    QStringList lastLines; ///< the command's last output lines (stdout and stderr as they came), at most kTailLines
    static constexpr int kTailLines = 12;
};

/**
 * A run on the user's runner: a temporary folder with the files the template's placeholders name (program.pte,
 * inputs.json, and the run.etdp / debug.bin the command is to leave), the template expanded into a shell command,
 * that command run (ShellCommand: its own process group, output as it comes, cancel ends the group), then the check
 * that it left the ETDump. The caller writes the program to paths().pte between prepare() and start(). The folder
 * goes with the object (or stays, setKeepFolder).
 */
class RunnerJob : public QObject
{
    Q_OBJECT
public:
    explicit RunnerJob(QObject* parent = nullptr);
    ~RunnerJob() override;

    /**
     * Makes the temporary folder, writes {inputs} (a copy of `inputsFile`; else `inputsJson`, the text
     * pte::runnerInputsJson gives; else "{}": the runner's default fill) and expands the template.
     * @returns the command; InvalidInput for a template expandRunnerTemplate refuses, Io when the folder or the
     *   inputs file cannot be written.
     */
    pte::Result<QString> prepare(
        const QString& templ, const QString& inputsFile = QString(), const QByteArray& inputsJson = QByteArray());
    /** The folder and the placeholders' paths (after prepare()). */
    [[nodiscard]] QString folder() const;
    [[nodiscard]] const pte::RunnerPaths& paths() const { return m_paths; }
    [[nodiscard]] QString command() const { return m_command; }
    /** Keeps the folder when the object goes (the CLI's --keep). */
    void setKeepFolder(bool keep);

    /** Runs the command (after prepare() and writing paths().pte); output() as it comes, then finished(). */
    void start();
    /** Ends the command's whole process group; finished(Cancelled) once it is gone. */
    void cancel();
    /** See ShellCommand::setTimeout, setKillGrace. */
    void setTimeout(int ms) { m_shell.setTimeout(ms); }
    void setKillGrace(int ms) { m_shell.setKillGrace(ms); }
    [[nodiscard]] bool isRunning() const { return m_shell.isRunning(); }
    [[nodiscard]] qint64 processGroup() const { return m_shell.processGroup(); }

Q_SIGNALS:
    void started(qint64 processGroup);
    /** Text the command wrote (decoded as UTF-8), on stdout or stderr. */
    void output(const QString& text, bool isStderr);
    void finished(const pte::process::RunnerOutcome& outcome);

private:
    void addOutput(const QByteArray& bytes, bool isStderr);
    void shellFinished(const ShellExit& exit);

    std::unique_ptr<QTemporaryDir> m_dir;
    pte::RunnerPaths m_paths;
    QString m_template;
    QString m_command;
    ShellCommand m_shell;
    QStringList m_tail;
    QString m_partial[2]; ///< stdout's and stderr's last line, while it has no '\n' yet
};

} // namespace pte::process

Q_DECLARE_METATYPE(pte::process::RunnerOutcome)
