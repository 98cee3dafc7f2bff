// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "process/runnerjob.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace pte::process {

RunnerJob::RunnerJob(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<pte::process::RunnerOutcome>();
    connect(&m_shell, &ShellCommand::started, this, &RunnerJob::started);
    connect(&m_shell, &ShellCommand::output, this, &RunnerJob::addOutput);
    connect(&m_shell, &ShellCommand::finished, this, &RunnerJob::shellFinished);
}

RunnerJob::~RunnerJob() = default;

QString RunnerJob::folder() const { return m_dir ? m_dir->path() : QString(); }

void RunnerJob::setKeepFolder(bool keep)
{
    if (m_dir)
        m_dir->setAutoRemove(!keep);
}

pte::Result<QString> RunnerJob::prepare(const QString& templ, const QString& inputsFile, const QByteArray& inputsJson)
{
    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/ptelens-run-XXXXXX"));
    if (!m_dir->isValid())
        return pte::fail(pte::ErrorCode::Io,
            "cannot make a temporary folder for the run in " + QDir::tempPath().toStdString() + ": "
                + m_dir->errorString().toStdString());
    const QDir dir(m_dir->path());
    m_paths.pte = dir.filePath(QStringLiteral("program.pte")).toStdString();
    m_paths.etdump = dir.filePath(QStringLiteral("run.etdp")).toStdString();
    m_paths.debugBuffer = dir.filePath(QStringLiteral("debug.bin")).toStdString();
    m_paths.inputs = dir.filePath(QStringLiteral("inputs.json")).toStdString();
    auto command = pte::expandRunnerTemplate(templ.toStdString(), m_paths);
    if (!command)
        return std::move(command).error();
    const QString inputsPath = QString::fromStdString(m_paths.inputs);
    if (!inputsFile.isEmpty()) {
        if (!QFile::copy(inputsFile, inputsPath))
            return pte::fail(
                pte::ErrorCode::Io, inputsFile.toStdString() + ": cannot copy the inputs file to " + m_paths.inputs);
    } else {
        const QByteArray text = inputsJson.isEmpty() ? QByteArrayLiteral("{}\n") : inputsJson;
        QFile f(inputsPath);
        if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
            return pte::fail(pte::ErrorCode::Io, m_paths.inputs + ": cannot write: " + f.errorString().toStdString());
    }
    m_template = templ;
    m_command = QString::fromStdString(*command);
    return m_command;
}

void RunnerJob::start()
{
    m_tail.clear();
    m_partial[0].clear();
    m_partial[1].clear();
    QFile::remove(QString::fromStdString(m_paths.etdump));
    QFile::remove(QString::fromStdString(m_paths.debugBuffer));
    m_shell.start(m_command, folder());
}

void RunnerJob::cancel() { m_shell.cancel(); }

void RunnerJob::addOutput(const QByteArray& bytes, bool isStderr)
{
    const QString text = QString::fromUtf8(bytes);
    Q_EMIT output(text, isStderr);
    QString& partial = m_partial[isStderr ? 1 : 0];
    partial += text;
    qsizetype newline;
    while ((newline = partial.indexOf(QLatin1Char('\n'))) >= 0) {
        m_tail << partial.left(newline).remove(QLatin1Char('\r'));
        partial.remove(0, newline + 1);
        if (m_tail.size() > RunnerOutcome::kTailLines)
            m_tail.removeFirst();
    }
}

void RunnerJob::shellFinished(const ShellExit& exit)
{
    RunnerOutcome out;
    out.exit = exit;
    out.lastLines = m_tail;
    for (const QString& partial : m_partial) {
        if (partial.isEmpty())
            continue;
        out.lastLines << partial;
        if (out.lastLines.size() > RunnerOutcome::kTailLines)
            out.lastLines.removeFirst();
    }
    const QString etdump = QString::fromStdString(m_paths.etdump);
    const QString buffer = QString::fromStdString(m_paths.debugBuffer);
    switch (exit.kind) {
    case ShellExit::Kind::Cancelled:
        out.result = RunnerOutcome::Result::Cancelled;
        out.message = QStringLiteral(
            "The run was cancelled: its process group was ended (SIGTERM; SIGKILL for what did not stop).");
        break;
    case ShellExit::Kind::TimedOut:
        out.result = RunnerOutcome::Result::TimedOut;
        out.message = QStringLiteral("The command ran longer than the timeout and was ended with its process group.");
        break;
    case ShellExit::Kind::Exited:
        if (exit.code == 0) {
            if (QFileInfo(etdump).isFile() && QFileInfo(etdump).size() > 0) {
                out.result = RunnerOutcome::Result::Ok;
                out.etdumpPath = etdump;
                out.message = QStringLiteral("The command exited 0 and wrote the ETDump.");
            } else {
                out.result = RunnerOutcome::Result::NoEtdump;
                out.message =
                    QStringLiteral("The command exited 0 but wrote no ETDump at %1 (the template's {etdump}%2).")
                        .arg(etdump,
                            pte::runnerTemplateUses(m_template.toStdString(), "etdump")
                                ? QString()
                                : QStringLiteral(", which it does not name"));
            }
            break;
        }
        [[fallthrough]];
    case ShellExit::Kind::Signalled:
    case ShellExit::Kind::FailedToStart:
        out.result = RunnerOutcome::Result::CommandFailed;
        out.message = QStringLiteral("The command failed: %1.").arg(exit.describe());
        break;
    }
    if (QFileInfo(buffer).isFile() && QFileInfo(buffer).size() > 0)
        out.debugBufferPath = buffer;
    Q_EMIT finished(out);
}

} // namespace pte::process
