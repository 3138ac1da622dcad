// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The sharding page: examples, ranks, batch, shuffle, seed, epoch and drop_last, and the grid
// of which rank gets which samples, as `ddplab-engine shard` computes it.

#include "client/engine/shard_assignment.hpp"

#include <QTimer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
class QSpinBox;
QT_END_NAMESPACE

namespace ddplab {
struct Config;
}

namespace ddplab::ui {

class EngineQuery;
class ShardGridWidget;

class ShardingView : public QWidget {
    Q_OBJECT

public:
    // Drawing one square per example stops being useful beyond this.
    static constexpr int kMaxShownExamples = 4096;

    explicit ShardingView(QWidget* parent = nullptr);

    void setEnginePath(const QString& path);
    void setRequest(const ShardRequest& request);
    ShardRequest request() const;
    // The run settings' data split (the dataset capped at kMaxShownExamples).
    void showConfig(const ddplab::Config& config);

    const ShardGridWidget* grid() const { return m_grid; }

signals:
    void assignmentShown();
    void useRunSettingsRequested();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void requestAssignment();

    QString m_enginePath;
    bool m_unasked = false;  // the request changed while the page was hidden: ask when it shows
    EngineQuery* m_query = nullptr;
    QTimer m_debounce;
    QSpinBox* m_examples = nullptr;
    QSpinBox* m_ranks = nullptr;
    QSpinBox* m_batch = nullptr;
    QCheckBox* m_shuffle = nullptr;
    QSpinBox* m_seed = nullptr;
    QSpinBox* m_epoch = nullptr;
    QCheckBox* m_dropLast = nullptr;
    QLabel* m_summary = nullptr;
    ShardGridWidget* m_grid = nullptr;
};

}  // namespace ddplab::ui
