// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "document/backgroundjobs.h"

namespace pte::ui {

BackgroundJobs::BackgroundJobs(QObject* parent)
    : QObject(parent)
{ }

BackgroundJobs::~BackgroundJobs() { cancelAndWait(); }

void BackgroundJobs::cancelAndWait()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
    for (auto& f : m_running) {
        f.cancel();
        f.waitForFinished();
    }
}

void BackgroundJobs::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    Q_EMIT busyChanged(busy);
}

void BackgroundJobs::cancel()
{
    if (!m_busy)
        return;
    if (m_cancelFlag)
        m_cancelFlag->store(true);
    for (auto& f : m_running)
        f.cancel();
    ++m_generation; // drop whatever the cancelled job still reports
    setBusy(false);
    Q_EMIT cancelled();
}

void BackgroundJobs::waitForIdle()
{
    for (auto& f : m_running)
        f.waitForFinished();
}

} // namespace pte::ui
