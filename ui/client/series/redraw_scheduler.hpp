// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// When a page of live charts redraws, and which chart goes next: charts take turns, one per
// tick, so the event loop is never held for the whole page at once; every waiting chart is
// redrawn once per interval; and the interval grows with what a frame of the page costs, so
// drawing keeps to its share of the time and a heavy page is redrawn less often instead of
// falling behind the stream. Pure arithmetic, no timer: ChartGrid drives it with one.

#include <QList>

namespace ddplab::ui {

class RedrawScheduler {
public:
    // Coalesced redraws: at most one per interval (about 30 per second) on a light page.
    static constexpr int kFastestIntervalMs = 33;
    static constexpr int kSlowestIntervalMs = 1000;
    // Drawing may take this share of the time; the rest stays for reading events and the user.
    static constexpr double kDrawingShare = 0.4;

    // What one frame of every chart cost last time (handing over the series plus painting).
    void adapt(double frameCostMs);
    int intervalMs() const { return m_intervalMs; }
    // The wait before the next chart's turn, with `charts` charts taking turns.
    int tickMs(qsizetype charts) const;

    // The chart whose turn it is: the first waiting one after the last served, round the
    // page; -1 when none waits.
    qsizetype pick(const QList<bool>& waiting);

private:
    int m_intervalMs = kFastestIntervalMs;
    qsizetype m_next = 0;
};

}  // namespace ddplab::ui
