// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QTimer>

namespace pte::process {

/** How a ShellCommand ended. */
struct ShellExit
{
    enum class Kind
    {
        Exited, ///< the shell exited by itself: `code` is its exit status
        Signalled, ///< the shell was killed by a signal it did not get from cancel(): `signal`
        Cancelled, ///< cancel() ended it
        TimedOut, ///< it ran longer than setTimeout() and was ended as cancel() ends it
        FailedToStart, ///< /bin/sh could not be started: `error`
    };
    Kind kind = Kind::Exited;
    int code = -1; ///< Exited: the exit status (0 success)
    int signal = 0; ///< Signalled: the signal number
    QString error; ///< FailedToStart: why
    /** Cancelled, TimedOut: false when a process of the group was still there after SIGKILL (it stopped being
     *  waited for); true otherwise. */
    bool groupGone = true;

    [[nodiscard]] bool succeeded() const { return kind == Kind::Exited && code == 0; }
    /** "exit code 2", "killed by signal 9 (Killed)", "cancelled", "timed out after 30 s", "failed to start: ...". */
    [[nodiscard]] QString describe() const;
};

/**
 * One shell command (`/bin/sh -c COMMAND`) run in a process group of its own (a new session: setsid in the child),
 * its output passed on as it comes. cancel() ends the whole group, whatever the command started: SIGTERM to every
 * process of the group, SIGKILL after killGrace(); finished() comes once no process of the group is left (or, should
 * one survive SIGKILL, after a last second). On Linux the object makes the program a child subreaper
 * (PR_SET_CHILD_SUBREAPER) so that the group's orphans are its own to reap, not zombies left to an init that may not
 * reap them. Nothing here blocks: everything is signals on the thread the object lives on.
 */
class ShellCommand : public QObject
{
    Q_OBJECT
public:
    explicit ShellCommand(QObject* parent = nullptr);
    /** A command still running is killed with its group (SIGKILL) and waited for, briefly. */
    ~ShellCommand() override;

    /** Starts `command` with `workingDirectory` as its current folder; started() or finished(FailedToStart). */
    void start(const QString& command, const QString& workingDirectory);
    /** Ends the command's process group (SIGTERM, then SIGKILL after killGrace()); finished(Cancelled). */
    void cancel();
    /** Ends the command as cancel() does, with finished(TimedOut), once it ran `ms` milliseconds (0: never). */
    void setTimeout(int ms) { m_timeoutMs = ms; }
    /** Time between SIGTERM and SIGKILL on cancel (default 3000 ms). */
    void setKillGrace(int ms) { m_killGraceMs = ms; }
    [[nodiscard]] int killGrace() const { return m_killGraceMs; }

    [[nodiscard]] bool isRunning() const { return m_running; }
    /** The process group of the running command (the shell's pid), or 0. */
    [[nodiscard]] qint64 processGroup() const { return m_pgid; }

Q_SIGNALS:
    void started(qint64 processGroup);
    /** Bytes of the command's standard output (`isStderr` false) or standard error, as they come. */
    void output(const QByteArray& bytes, bool isStderr);
    void finished(const pte::process::ShellExit& exit);

private:
    void end(ShellExit::Kind kind);
    void processFinished(int exitCode, QProcess::ExitStatus status);
    void killGroup();
    void pollGroup();
    /** Reaps the group's orphans (this program is their subreaper); true when no process of the group is left. */
    [[nodiscard]] bool groupGone() const;
    void emitFinished();

    QProcess* m_process = nullptr;
    QTimer m_timeout;
    QTimer m_killTimer;
    QTimer m_pollTimer;
    int m_timeoutMs = 0;
    int m_killGraceMs = 3000;
    int m_polls = 0;
    qint64 m_pgid = 0;
    bool m_running = false;
    bool m_processDone = false;
    bool m_ending = false; ///< cancel() or the timeout began ending the group
    bool m_killed = false; ///< SIGKILL went to the group
    ShellExit m_exit;
};

} // namespace pte::process

Q_DECLARE_METATYPE(pte::process::ShellExit)
