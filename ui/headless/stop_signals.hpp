// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SIGINT, SIGTERM and SIGHUP to a headless job, turned into a Qt signal (issue 41: SIGTERM to
// `ddplab --advise` ended it with 143, without saying it was kept as stopped nor how to resume
// it). The handler only writes the signal's number to a socket pair; the job reads it in its
// event loop, stops its work there and says what it kept. While an object lives the three
// signals are caught; its destructor puts back what was there.

#include <QObject>

#include <csignal>

class QSocketNotifier;

namespace ddplab::ui {

class StopSignals : public QObject {
    Q_OBJECT

public:
    explicit StopSignals(QObject* parent = nullptr);
    ~StopSignals() override;

    // The last signal received (SIGTERM, ...), 0 before any.
    int received() const { return m_received; }

signals:
    void stopAsked(int signal);

private:
    void onReadable();

    QSocketNotifier* m_notifier = nullptr;
    int m_received = 0;
    struct sigaction m_before[3] = {};
};

}  // namespace ddplab::ui
