// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which sample indices each rank gets at each iteration of one epoch, as `ddplab-engine shard`
// prints them (DistributedSampler + DataLoader, exactly), with the padding and dropped ones.

#include "core/shard_request.hpp"

#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QStringList>

#include <optional>

namespace ddplab::ui {

// The engine's own request type: one definition for both sides of `shard`.
using ShardRequest = ddplab::ShardRequest;

// `ddplab-engine shard ...` for `request`.
QStringList shardArguments(const ShardRequest& request);

struct ShardAssignment {
    ShardRequest request;
    int samplesPerRank = 0;
    int iterations = 0;
    QList<QList<QList<int>>> ranks;  // [rank][iteration] -> sample indices in batch order
    QSet<quint64> padding;           // packed (rank, iteration, position) of repeated samples
    QList<int> dropped;

    static std::optional<ShardAssignment> fromJson(const QJsonObject& object, QString* error);
    bool isPadding(int rank, int iteration, int position) const;
    int maxBatchLength() const;
    QString summary() const;
};

}  // namespace ddplab::ui
