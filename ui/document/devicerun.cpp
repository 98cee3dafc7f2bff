// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "document/devicerun.h"

#include "document/profiledata.h"
#include "pte/emittedoutput.h"
#include "pte/emitter.h"
#include "pte/ptewriter.h"
#include "pte/referenceinputs.h"

#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

namespace pte::ui {

namespace {

const QString kTemplateKey = QStringLiteral("runner/template");

/** Writes the snapshot's program to `path` (an emitted one laid out as it was emitted); the error, or "". */
QString writeProgram(const std::shared_ptr<const Snapshot>& snap, const std::string& path)
{
    if (snap->emitted) {
        auto laid = pte::layoutEmitted(snap->emitted->program, *snap->emitted);
        if (!laid)
            return QString::fromStdString(laid.error().toString());
        auto w = pte::writePte(laid.value(), path, snap->emitted->serialize.write);
        return w ? QString() : QString::fromStdString(w.error().toString());
    }
    auto w = pte::writePte(*snap->program, path);
    return w ? QString() : QString::fromStdString(w.error().toString());
}

} // namespace

DeviceRun::DeviceRun(QObject* parent)
    : QObject(parent)
{ }

DeviceRun::~DeviceRun()
{
    if (m_write)
        m_write->waitForFinished(); // the write uses the job's folder
}

QString DeviceRun::savedTemplate() { return QSettings().value(kTemplateKey).toString(); }

void DeviceRun::setSavedTemplate(const QString& templ) { QSettings().setValue(kTemplateKey, templ); }

QString DeviceRun::command() const { return m_job ? m_job->command() : QString(); }

QString DeviceRun::folder() const { return m_job ? m_job->folder() : QString(); }

qint64 DeviceRun::processGroup() const { return m_job && m_job->isRunning() ? m_job->processGroup() : 0; }

bool DeviceRun::start(const std::shared_ptr<const Snapshot>& snapshot, const QString& templ, QString* error)
{
    if (m_running) {
        *error = QStringLiteral("A run is already going on.");
        return false;
    }
    if (!snapshot || !snapshot->program) {
        *error = QStringLiteral("There is no program to run: open a .pte or emit one first.");
        return false;
    }
    if (m_write)
        m_write->waitForFinished(); // a cancelled write still uses the previous folder
    // Inputs: what the reference interpreter is given (the open ETDump's choice, else the default for the program: a
    // bundled test case, or the pattern fill): its JSON file, or their values written for the runner.
    const pte::ReferenceInputSpec reference =
        snapshot->profile ? snapshot->profile->reference : defaultReferenceInputs(*snapshot);
    QString inputs;
    QByteArray inputsJson;
    if (reference.kind == pte::ReferenceInputSpec::Kind::JsonFile)
        inputs = QString::fromStdString(reference.path);
    else if (const auto text = pte::runnerInputsJson(reference, *snapshot->program,
                 snapshot->pteFile && snapshot->pteFile->program == snapshot->program ? snapshot->pteFile->bundled.get()
                                                                                      : nullptr))
        inputsJson = QByteArray::fromStdString(*text);
    auto job = std::make_unique<pte::process::RunnerJob>();
    auto command = job->prepare(templ, inputs, inputsJson);
    if (!command) {
        *error = QString::fromStdString(command.error().message);
        return false;
    }
    m_job = std::move(job); // the previous run's folder goes now
    connect(m_job.get(), &pte::process::RunnerJob::output, this, &DeviceRun::output);
    connect(m_job.get(), &pte::process::RunnerJob::finished, this, &DeviceRun::finish);
    m_running = true;
    delete m_write;
    m_write = new QFutureWatcher<QString>(this);
    auto* watcher = m_write;
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher] {
        if (watcher == m_write && m_running && !watcher->isCanceled())
            programWritten(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(writeProgram, snapshot, m_job->paths().pte));
    return true;
}

void DeviceRun::programWritten(const QString& error)
{
    if (!error.isEmpty()) {
        pte::process::RunnerOutcome out;
        out.result = pte::process::RunnerOutcome::Result::CommandFailed;
        out.exit.kind = pte::process::ShellExit::Kind::FailedToStart;
        out.exit.error = error;
        out.message = QStringLiteral("The program could not be written to the run's folder: %1").arg(error);
        finish(out);
        return;
    }
    Q_EMIT commandStarted(m_job->command());
    m_job->start();
}

void DeviceRun::cancel()
{
    if (!m_running)
        return;
    if (m_job->isRunning()) {
        m_job->cancel(); // finished() once the group is gone
        return;
    }
    // Still writing the program: the command never starts.
    pte::process::RunnerOutcome out;
    out.result = pte::process::RunnerOutcome::Result::Cancelled;
    out.exit.kind = pte::process::ShellExit::Kind::Cancelled;
    out.message = QStringLiteral("The run was cancelled before the command started.");
    finish(out);
}

void DeviceRun::finish(const pte::process::RunnerOutcome& outcome)
{
    if (!m_running)
        return;
    m_running = false;
    Q_EMIT finished(outcome);
}

} // namespace pte::ui
