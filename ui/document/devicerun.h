// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "document/snapshot.h"
#include "process/runnerjob.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <memory>

namespace pte::ui {

/**
 * "Run on Device": the open program run on the user's runner, the command template set in the preferences
 * (pte/runnertemplate.h). The program is written to the run's temporary folder off the GUI thread (an emitted program
 * laid out as it was emitted), then the command runs (process/runnerjob.h) with its output passed on as it comes;
 * cancel() ends its whole process group. The folder stays until the next run or until the object goes, so that the
 * ETDump it left can be opened over the program. One run at a time.
 */
class DeviceRun : public QObject
{
    Q_OBJECT
public:
    explicit DeviceRun(QObject* parent = nullptr);
    ~DeviceRun() override;

    /** The template in the preferences (QSettings "runner/template"); empty when none was set. */
    [[nodiscard]] static QString savedTemplate();
    static void setSavedTemplate(const QString& templ);

    /**
     * Starts a run of `snapshot`'s program with `templ`. Its inputs ({inputs}): the reference interpreter's JSON file
     * when the open ETDump's reference inputs are one, else "{}" (the runner's default fill).
     * @returns false, with *error set, when there is no program, the template is refused (the placeholder and its
     *   offset) or the folder cannot be made; nothing started then.
     */
    bool start(const std::shared_ptr<const Snapshot>& snapshot, const QString& templ, QString* error);
    /** Ends the run: the program write is dropped, the command's process group ended; finished(Cancelled). */
    void cancel();
    [[nodiscard]] bool isRunning() const { return m_running; }
    /** The expanded command and the run's folder (after start()). */
    [[nodiscard]] QString command() const;
    [[nodiscard]] QString folder() const;
    /** The command's process group while it runs, else 0. */
    [[nodiscard]] qint64 processGroup() const;

Q_SIGNALS:
    /** The program is written; the command starts. */
    void commandStarted(const QString& command);
    void output(const QString& text, bool isStderr);
    void finished(const pte::process::RunnerOutcome& outcome);

private:
    void programWritten(const QString& error);
    void finish(const pte::process::RunnerOutcome& outcome);

    std::unique_ptr<pte::process::RunnerJob> m_job;
    QFutureWatcher<QString>* m_write = nullptr;
    bool m_running = false;
};

} // namespace pte::ui
