// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QList>
#include <QObject>
#include <QPromise>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>

namespace pte::ui {

/**
 * The background-job side of a GUI-thread object (Document, Comparison): one QtConcurrent job at a time, with
 * progress, a busy state and cancel. A new job supersedes (cancels) the running one, whose result is dropped; the
 * destructor cancels and waits. Subclasses start jobs with runJob() and add their own result signals.
 */
class BackgroundJobs : public QObject
{
    Q_OBJECT
public:
    explicit BackgroundJobs(QObject* parent = nullptr);
    ~BackgroundJobs() override;

    /** Cancels the running job, if any: its result is dropped and cancelled() is emitted. */
    void cancel();
    /** Waits for the running jobs (tests and --screenshot). */
    void waitForIdle();
    [[nodiscard]] bool isBusy() const { return m_busy; }

Q_SIGNALS:
    void busyChanged(bool busy);
    /** percent is -1 while unknown; text is "what" or "what: step". */
    void progressChanged(int percent, const QString& text);
    void cancelled();

protected:
    /** Cancels every job and waits for it to end: the destructor does this; a subclass whose jobs use its members
     *  calls it in its own destructor, before those members go. */
    void cancelAndWait();
    /**
     * Runs `work(QPromise<T>&, const std::atomic<bool>& cancelFlag)` in QtConcurrent; on the GUI thread, calls
     * `done(T)` with its result unless the job was superseded or cancelled, or produced no result (then cancelled()).
     */
    template <typename T, typename Work, typename Done> void runJob(const QString& what, Work work, Done done);

private:
    void setBusy(bool busy);

    quint64 m_generation = 0;
    bool m_busy = false;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    QList<QFuture<void>> m_running;
};

template <typename T, typename Work, typename Done>
void BackgroundJobs::runJob(const QString& what, Work work, Done done)
{
    if (m_busy)
        cancel();
    m_running.removeIf([](const QFuture<void>& f) { return f.isFinished(); });
    const quint64 generation = ++m_generation;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    m_cancelFlag = flag;
    setBusy(true);
    Q_EMIT progressChanged(-1, what);

    auto* watcher = new QFutureWatcher<T>(this);
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, watcher, generation, what](int value) {
        if (generation != m_generation)
            return;
        const int max = watcher->progressMaximum();
        const int percent = max > 0 ? int(qint64(value) * 100 / max) : -1;
        const QString text = watcher->progressText();
        Q_EMIT progressChanged(percent, text.isEmpty() ? what : what + QStringLiteral(": ") + text);
    });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, done]() {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // superseded or cancelled
        setBusy(false);
        QFuture<T> future = watcher->future();
        if (future.isCanceled() || future.resultCount() == 0) {
            Q_EMIT cancelled();
            return;
        }
        done(future.result());
    });
    QFuture<T> future = QtConcurrent::run([work, flag](QPromise<T>& promise) { work(promise, *flag); });
    watcher->setFuture(future);
    m_running.append(QFuture<void>(future));
}

} // namespace pte::ui
