// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "process/shellcommand.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace pte::process {

namespace {

/** How often, after SIGKILL, the group is looked at again, and how many times before giving up on it. */
constexpr int kPollMs = 10;
constexpr int kPolls = 500; // 5 s: ends as soon as the group is gone; a loaded machine (ASan, CI) can take a while

} // namespace

QString ShellExit::describe() const
{
    switch (kind) {
    case Kind::Exited:
        return QStringLiteral("exit code %1").arg(code);
    case Kind::Signalled:
        return QStringLiteral("killed by signal %1 (%2)").arg(signal).arg(QString::fromLocal8Bit(strsignal(signal)));
    case Kind::Cancelled:
        return groupGone ? QStringLiteral("cancelled") : QStringLiteral("cancelled (a process survived SIGKILL)");
    case Kind::TimedOut:
        return groupGone ? QStringLiteral("timed out") : QStringLiteral("timed out (a process survived SIGKILL)");
    case Kind::FailedToStart:
        return QStringLiteral("failed to start: %1").arg(error);
    }
    return {};
}

ShellCommand::ShellCommand(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<pte::process::ShellExit>();
    m_timeout.setSingleShot(true);
    m_killTimer.setSingleShot(true);
    m_pollTimer.setInterval(kPollMs);
    connect(&m_timeout, &QTimer::timeout, this, [this] { end(ShellExit::Kind::TimedOut); });
    connect(&m_killTimer, &QTimer::timeout, this, &ShellCommand::killGroup);
    connect(&m_pollTimer, &QTimer::timeout, this, &ShellCommand::pollGroup);
}

ShellCommand::~ShellCommand()
{
    if (!m_running || !m_process)
        return;
    m_process->disconnect(this);
    if (m_pgid > 0)
        ::kill(-pid_t(m_pgid), SIGKILL);
    else
        m_process->kill();
    m_processDone = m_process->waitForFinished(1000);
    // SIGKILL cannot be caught, but its delivery and the reparenting of the group's orphans to this process (their
    // subreaper) take a moment, longer on a loaded machine: reap them until none is left, for at most 2 s. Nothing
    // reaps them after this object (a zombie keeps its process group alive).
    for (int i = 0; i < 2000 && m_processDone && !groupGone(); ++i)
        ::usleep(1000);
}

void ShellCommand::start(const QString& command, const QString& workingDirectory)
{
    if (m_running)
        return;
#ifdef __linux__
    // The group's orphans (what the shell started and left) become this program's children, reaped in groupGone().
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    delete m_process;
    m_process = new QProcess(this);
    m_exit = ShellExit {};
    m_pgid = 0;
    m_polls = 0;
    m_processDone = false;
    m_ending = false;
    m_killed = false;
    m_running = true;
    m_process->setWorkingDirectory(workingDirectory);
    m_process->setProgram(QStringLiteral("/bin/sh"));
    m_process->setArguments({ QStringLiteral("-c"), command });
    m_process->setStandardInputFile(QProcess::nullDevice());
    // A session (and process group) of its own: cancel() reaches everything the command starts, and a terminal's
    // Ctrl-C reaches the command only through this program.
    m_process->setChildProcessModifier([] { ::setsid(); });
    connect(m_process, &QProcess::started, this, [this] {
        m_pgid = m_process->processId();
        if (m_timeoutMs > 0)
            m_timeout.start(m_timeoutMs);
        Q_EMIT started(m_pgid);
    });
    connect(m_process, &QProcess::readyReadStandardOutput, this,
        [this] { Q_EMIT output(m_process->readAllStandardOutput(), false); });
    connect(m_process, &QProcess::readyReadStandardError, this,
        [this] { Q_EMIT output(m_process->readAllStandardError(), true); });
    connect(m_process, &QProcess::finished, this, &ShellCommand::processFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || !m_running)
            return;
        m_exit.kind = ShellExit::Kind::FailedToStart;
        m_exit.error = m_process->errorString();
        m_processDone = true;
        emitFinished();
    });
    m_process->start();
}

void ShellCommand::cancel() { end(ShellExit::Kind::Cancelled); }

void ShellCommand::end(ShellExit::Kind kind)
{
    if (!m_running || m_ending)
        return;
    m_ending = true;
    m_exit.kind = kind;
    m_timeout.stop();
    if (m_pgid > 0)
        ::kill(-pid_t(m_pgid), SIGTERM);
    else if (m_process)
        m_process->kill(); // not started yet: nothing has a group to end
    m_killTimer.start(m_killGraceMs);
}

void ShellCommand::processFinished(int exitCode, QProcess::ExitStatus status)
{
    // Whatever the shell left in the pipes has been read by now; pass it on before finished().
    if (const QByteArray out = m_process->readAllStandardOutput(); !out.isEmpty())
        Q_EMIT output(out, false);
    if (const QByteArray err = m_process->readAllStandardError(); !err.isEmpty())
        Q_EMIT output(err, true);
    m_processDone = true;
    m_timeout.stop();
    if (!m_ending) {
        m_exit.kind = status == QProcess::NormalExit ? ShellExit::Kind::Exited : ShellExit::Kind::Signalled;
        m_exit.code = status == QProcess::NormalExit ? exitCode : -1;
        m_exit.signal = status == QProcess::NormalExit ? 0 : exitCode; // Qt gives the signal as the exit code
        (void)groupGone(); // reaps what already ended; what still runs is the command's business
        emitFinished();
        return;
    }
    // Cancelled: done once the whole group is gone (now, or after SIGKILL).
    if (groupGone()) {
        emitFinished();
        return;
    }
    // What got SIGTERM may take a moment to go: look again until it has, or SIGKILL is due.
    m_pollTimer.start();
}

void ShellCommand::killGroup()
{
    if (m_pgid > 0)
        ::kill(-pid_t(m_pgid), SIGKILL);
    m_killed = true;
    m_polls = 0;
    m_pollTimer.start();
}

void ShellCommand::pollGroup()
{
    if (!m_processDone)
        return; // QProcess reaps the shell itself, then finished()
    if (groupGone() || (m_killed && ++m_polls > kPolls)) {
        m_exit.groupGone = groupGone();
        emitFinished();
    }
}

bool ShellCommand::groupGone() const
{
    if (m_pgid <= 0)
        return true;
    // Reap the group's processes that are this program's children: its orphans, the shell being gone (QProcess
    // reaped it before finished()).
    if (m_processDone) {
        int status = 0;
        while (::waitpid(-pid_t(m_pgid), &status, WNOHANG) > 0) { }
    }
    return ::kill(-pid_t(m_pgid), 0) != 0 && errno == ESRCH;
}

void ShellCommand::emitFinished()
{
    if (!m_running)
        return;
    m_running = false;
    m_timeout.stop();
    m_killTimer.stop();
    m_pollTimer.stop();
    Q_EMIT finished(m_exit);
}

} // namespace pte::process
