// SPDX-License-Identifier: GPL-3.0-or-later
#include "shard_assignment.hpp"

#include "client/wire.hpp"

#include <QJsonArray>

namespace ddplab::ui {
namespace {

quint64 packPosition(int rank, int iteration, int position)
{
    return (quint64(quint32(rank)) << 42) | (quint64(quint32(iteration)) << 21) | quint64(quint32(position));
}

}  // namespace

QStringList shardArguments(const ShardRequest& request)
{
    QStringList arguments{QStringLiteral("shard"),
                          QStringLiteral("--num-examples"), QString::number(request.numExamples),
                          QStringLiteral("--world-size"),   QString::number(request.worldSize),
                          QStringLiteral("--batch-size"),   QString::number(request.batchSize)};
    if (request.dropLast)
        arguments.append(QStringLiteral("--drop-last"));
    if (request.shuffle) {
        arguments.append({QStringLiteral("--shuffle"), QStringLiteral("--seed"), QString::number(request.seed),
                          QStringLiteral("--epoch"), QString::number(request.epoch)});
    }
    return arguments;
}

std::optional<ShardAssignment> ShardAssignment::fromJson(const QJsonObject& object, QString* error)
{
    ShardAssignment assignment;
    namespace shard = ddplab::protocol::shard;
    assignment.request.numExamples = object.value(wire(key::kNumExamples)).toInteger();
    assignment.request.worldSize = object.value(wire(key::kWorldSize)).toInteger();
    assignment.request.batchSize = object.value(wire(key::kBatchSize)).toInteger();
    assignment.request.dropLast = object.value(wire(key::kDropLast)).toBool();
    assignment.request.shuffle = object.value(wire(key::kShuffle)).toBool();
    assignment.request.seed = object.value(wire(key::kSeed)).toInteger();
    assignment.request.epoch = object.value(wire(shard::kEpoch)).toInteger();
    assignment.samplesPerRank = object.value(wire(shard::kSamplesPerRank)).toInt();
    assignment.iterations = object.value(wire(shard::kIterations)).toInt();
    const QJsonValue ranks = object.value(wire(shard::kRanks));
    if (!ranks.isArray()) {
        if (error)
            *error = QStringLiteral("the engine's shard output has no \"ranks\" list");
        return std::nullopt;
    }
    for (const QJsonValue& rank : ranks.toArray()) {
        QList<QList<int>> iterations;
        for (const QJsonValue& batch : rank.toArray()) {
            QList<int> indices;
            for (const QJsonValue& index : batch.toArray())
                indices.append(index.toInt());
            iterations.append(indices);
        }
        assignment.ranks.append(iterations);
    }
    for (const QJsonValue& position : object.value(wire(shard::kPadding)).toArray()) {
        const QJsonArray triple = position.toArray();
        if (triple.size() == 3)
            assignment.padding.insert(packPosition(triple.at(0).toInt(), triple.at(1).toInt(), triple.at(2).toInt()));
    }
    for (const QJsonValue& index : object.value(wire(shard::kDropped)).toArray())
        assignment.dropped.append(index.toInt());
    return assignment;
}

bool ShardAssignment::isPadding(int rank, int iteration, int position) const
{
    return padding.contains(packPosition(rank, iteration, position));
}

int ShardAssignment::maxBatchLength() const
{
    int longest = 0;
    for (const auto& rank : ranks) {
        for (const auto& batch : rank)
            longest = std::max(longest, int(batch.size()));
    }
    return longest;
}

QString ShardAssignment::summary() const
{
    QString text = QObject::tr("%L1 examples over %2 ranks: %L3 per rank in %4 iteration(s) of up to %5.")
                       .arg(request.numExamples)
                       .arg(request.worldSize)
                       .arg(samplesPerRank)
                       .arg(iterations)
                       .arg(request.batchSize);
    if (!padding.isEmpty())
        text += QObject::tr(" %1 sample(s) repeated as padding so every rank gets as many.").arg(padding.size());
    if (!dropped.isEmpty())
        text += QObject::tr(" %1 example(s) dropped (drop_last).").arg(dropped.size());
    text += request.shuffle ? QObject::tr(" Shuffled with seed %1 + epoch %2: change the epoch to see a new order.")
                                  .arg(request.seed)
                                  .arg(request.epoch)
                            : QObject::tr(" Not shuffled: rank r takes examples r, r + %1, r + 2×%1, …").arg(request.worldSize);
    return text;
}

}  // namespace ddplab::ui
