// SPDX-License-Identifier: GPL-3.0-or-later
#include "sharding_view.hpp"

#include "client/engine/engine_query.hpp"
#include "core/derived.hpp"
#include "core/limits.hpp"
#include "sharding/shard_grid_widget.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QShowEvent>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ddplab::ui {
namespace {
constexpr int kDebounceMs = 150;  // typing 128 should not ask the engine three times
}  // namespace

ShardingView::ShardingView(QWidget* parent)
    : QWidget(parent)
    , m_query(new EngineQuery(this))
{
    const auto spin = [this](int minimum, int maximum, int value, const QString& tip) {
        auto* box = new QSpinBox(this);
        box->setRange(minimum, maximum);
        box->setValue(value);
        box->setToolTip(tip);
        connect(box, &QSpinBox::valueChanged, this, [this] { m_debounce.start(); });
        return box;
    };
    // The engine's own limits: a seed the run uses is a seed this view shows, whatever its size.
    m_examples = spin(1, kMaxShownExamples, 9, tr("Examples in the dataset"));
    m_ranks = spin(1, int(limits::kMaxRanks), 2, tr("Ranks (GPUs)"));
    m_batch = spin(1, int(limits::kMaxBatch), 3, tr("Batch per rank"));
    m_seed = spin(0, int(limits::kMaxSeed), 0, tr("Shuffle seed (the permutation is seeded with seed + epoch)"));
    m_epoch = spin(0, 10'000, 0, tr("Epoch: with shuffle, every epoch has its own order"));
    m_shuffle = new QCheckBox(tr("Shuffle"), this);
    m_dropLast = new QCheckBox(tr("Drop last"), this);
    for (QCheckBox* box : {m_shuffle, m_dropLast})
        connect(box, &QCheckBox::toggled, this, [this] { m_debounce.start(); });
    connect(m_shuffle, &QCheckBox::toggled, m_seed, &QSpinBox::setEnabled);
    connect(m_shuffle, &QCheckBox::toggled, m_epoch, &QSpinBox::setEnabled);
    m_seed->setEnabled(false);
    m_epoch->setEnabled(false);
    auto* useRun = new QPushButton(tr("Use run settings"), this);
    useRun->setToolTip(tr("Take examples, ranks, batch, shuffle, seed and drop_last from Setup"));
    connect(useRun, &QPushButton::clicked, this, &ShardingView::useRunSettingsRequested);

    // Two rows: what is split and how, then the order; narrow windows keep every control.
    auto* split = new QHBoxLayout;
    auto* order = new QHBoxLayout;
    const auto labelled = [&](QHBoxLayout* row, const QString& text, QWidget* widget) {
        auto* label = new QLabel(text, this);
        label->setBuddy(widget);
        row->addWidget(label);
        row->addWidget(widget);
        row->addSpacing(8);
    };
    labelled(split, tr("&Examples"), m_examples);
    labelled(split, tr("&Ranks"), m_ranks);
    labelled(split, tr("&Batch"), m_batch);
    split->addWidget(m_dropLast);
    split->addStretch(1);
    order->addWidget(m_shuffle);
    labelled(order, tr("Seed"), m_seed);
    labelled(order, tr("E&poch"), m_epoch);
    order->addStretch(1);
    order->addWidget(useRun);
    auto* controls = new QVBoxLayout;
    controls->addLayout(split);
    controls->addLayout(order);

    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_grid = new ShardGridWidget;
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_grid);
    scroll->setWidgetResizable(false);
    scroll->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_summary);
    layout->addWidget(scroll, 1);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &ShardingView::requestAssignment);
    connect(m_query, &EngineQuery::finished, this, [this](const QueryResult& result) {
        if (!result.ok) {
            m_summary->setText(result.error);
            return;
        }
        QString error;
        const std::optional<ShardAssignment> assignment = ShardAssignment::fromJson(result.object, &error);
        if (!assignment) {
            m_summary->setText(error);
            return;
        }
        m_summary->setText(assignment->summary());
        m_grid->setAssignment(*assignment);
        emit assignmentShown();
    });
}

void ShardingView::setEnginePath(const QString& path)
{
    m_enginePath = path;
    m_debounce.start();
}

ShardRequest ShardingView::request() const
{
    ShardRequest request;
    request.numExamples = m_examples->value();
    request.worldSize = m_ranks->value();
    request.batchSize = m_batch->value();
    request.shuffle = m_shuffle->isChecked();
    request.seed = m_seed->value();
    request.epoch = m_epoch->value();
    request.dropLast = m_dropLast->isChecked();
    return request;
}

void ShardingView::setRequest(const ShardRequest& request)
{
    m_examples->setValue(int(request.numExamples));
    m_ranks->setValue(int(request.worldSize));
    m_batch->setValue(int(request.batchSize));
    m_shuffle->setChecked(request.shuffle);
    m_seed->setValue(int(request.seed));
    m_epoch->setValue(int(request.epoch));
    m_dropLast->setChecked(request.dropLast);
    m_debounce.start();
}

void ShardingView::showConfig(const Config& config)
{
    ShardRequest request;
    request.numExamples = std::min<int64_t>(datasetSize(config), kMaxShownExamples);
    request.worldSize = config.worldSize;
    request.batchSize = std::min<int64_t>(config.batchSize, limits::kMaxBatch);
    request.shuffle = config.shuffle;
    request.seed = std::min<int64_t>(config.seed, limits::kMaxSeed);
    request.dropLast = config.dropLast;
    setRequest(request);
}

void ShardingView::requestAssignment()
{
    if (m_enginePath.isEmpty())
        return;
    // A page nobody sees asks nothing: each answer is an engine started, about a second of CPU
    // as LibTorch loads, and the window used to start one as it opened, for a page most
    // sessions never open. It asks when it is shown.
    m_unasked = !isVisible();
    if (m_unasked)
        return;
    m_query->start(m_enginePath, shardArguments(request()));
}

void ShardingView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_unasked)
        requestAssignment();
}

}  // namespace ddplab::ui
