// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The messages of a TensorBoard event file the lab writes, serialized (tensorboard_records.hpp
// frames them). Field numbers from TensorBoard's own definitions (tensorflow/tensorboard,
// tensorboard/compat/proto/event.proto and summary.proto, tensorboard/plugins/hparams/api.proto
// and plugin_data.proto; google/protobuf/struct.proto for the hparams' values); the minimal
// copies under tests/tools/tensorboard_proto/ are what the test decodes them with.
//   Event      wall_time 1 (double), step 2 (int64), file_version 3, summary 5
//   Summary    value 1: Value{tag 1, simple_value 2 (float), tensor 8, metadata 9}
//   metadata   SummaryMetadata{plugin_data 1: {plugin_name 1, content 2}}
// A scalar is a Summary.Value's simple_value (a float: what TensorBoard's scalars show). The
// HParams plugin's data is a summary under its own tag whose metadata's content is a serialized
// HParamsPluginData{version 0, experiment 2 | session_start_info 3 | session_end_info 4}.

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

namespace ddplab::ui {

// The first record of every event file: Event{wall_time, file_version "brain.Event:2"}.
QByteArray fileVersionEvent(double wallTime);

struct TensorBoardScalar {
    QString tag;
    double value = 0.0;  // written as a float, as TensorBoard keeps scalars
};
// One Event at `step` with a Summary of these scalars.
QByteArray scalarsEvent(double wallTime, qint64 step, const QList<TensorBoardScalar>& scalars);

// ---------------------------------------------------------------------------------------
// The HParams plugin (its tab shows a table of sessions: their hyperparameters and metrics)
// ---------------------------------------------------------------------------------------
namespace hparams {
inline const QString kExperimentTag = QStringLiteral("_hparams_/experiment");
inline const QString kSessionStartTag = QStringLiteral("_hparams_/session_start_info");
inline const QString kSessionEndTag = QStringLiteral("_hparams_/session_end_info");

enum class Status { Unknown = 0, Success = 1, Failure = 2, Running = 3 };            // api.proto's Status
enum class DatasetType { Unknown = 0, Training = 1, Validation = 2 };               // api.proto's DatasetType

struct HParam {
    QString name;
    QString description;
    QList<QJsonValue> values;  // its discrete domain: numbers (FLOAT64), strings or booleans
};
struct Metric {
    QString tag;          // a scalar tag of each session's run (group "": the session's own run)
    QString displayName;
    DatasetType dataset = DatasetType::Unknown;
};

// HParamsPluginData's bytes, for the summary's metadata.
QByteArray experimentContent(const QString& description, double timeCreated, const QList<HParam>& hparams,
                             const QList<Metric>& metrics);
// A session's hyperparameters (numbers, strings, booleans); sessions of one group_name are one
// row of the table (repeats with other seeds).
QByteArray sessionStartContent(const QJsonObject& values, const QString& groupName, double startTime);
QByteArray sessionEndContent(Status status, double endTime);
}  // namespace hparams

// One Event holding the HParams plugin's summary `tag` with `content` (and the empty float
// tensor TensorBoard's own hparams summaries carry, so that its tensor store keeps it).
QByteArray hparamsEvent(double wallTime, const QString& tag, const QByteArray& content);

}  // namespace ddplab::ui
