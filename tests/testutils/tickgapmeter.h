// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// How long the GUI thread was blocked: a short timer on the thread's event loop ticks while work runs, and the
// longest gap between its ticks is the longest time the loop could not run (the GUI tests and bench_workbench).

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>

namespace pte::test {

class TickGapMeter
{
public:
    /** Starts the clock and a timer ticking every `intervalMs` on the calling thread's event loop. */
    explicit TickGapMeter(int intervalMs = 5)
    {
        m_clock.start();
        m_timer.setInterval(intervalMs);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 now = m_clock.elapsed();
            m_longestGap = std::max(m_longestGap, now - m_lastTick);
            m_lastTick = now;
            ++m_ticks;
        });
        m_timer.start();
    }

    /** The longest time between two ticks (the first counted from the start), in ms. */
    [[nodiscard]] qint64 longestGapMs() const { return m_longestGap; }
    /** longestGapMs, counting the time since the last tick as a gap too. */
    [[nodiscard]] qint64 longestGapUntilNowMs() const { return std::max(m_longestGap, m_clock.elapsed() - m_lastTick); }
    /** How many times the timer ticked. */
    [[nodiscard]] int ticks() const { return m_ticks; }
    /** The clock started with the meter. */
    [[nodiscard]] const QElapsedTimer& clock() const { return m_clock; }

private:
    QElapsedTimer m_clock;
    QTimer m_timer;
    qint64 m_lastTick = 0;
    qint64 m_longestGap = 0;
    int m_ticks = 0;
};

} // namespace pte::test
