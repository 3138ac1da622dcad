#pragma once
// Which sample indices each rank gets at each iteration of one epoch, as `ddplab-engine shard`
// prints them (DistributedSampler + DataLoader, exactly), with the padding and dropped ones.

#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QStringList>

#include <optional>

namespace ddplab::ui {

struct ShardRequest {
    int numExamples = 9;
    int worldSize = 2;
    int batchSize = 3;
    bool dropLast = false;
    bool shuffle = false;
    int seed = 0;
    int epoch = 0;

    QStringList engineArguments() const;
};

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
