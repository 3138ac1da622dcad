// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The messages of a TensorBoard event file the lab writes, serialized (tfrecord.hpp frames
// them). Field numbers from TensorBoard's own definitions (tensorflow/tensorboard,
// tensorboard/compat/proto/event.proto and summary.proto, tensorboard/plugins/hparams/api.proto
// and plugin_data.proto; google/protobuf/struct.proto for the hparams' values); the minimal
// copies under tests/tools/tensorboard_proto/ are what the tests decode them with.
//   Event      wall_time 1 (double), step 2 (int64), file_version 3, summary 5
//   Summary    value 1: Value{tag 1, simple_value 2 (float), tensor 8, metadata 9}
//   metadata   SummaryMetadata{plugin_data 1: {plugin_name 1, content 2}}
// A scalar is a Summary.Value's simple_value: a float32, which is all TensorBoard keeps of a
// scalar (its data server reads float32 scalars only). The HParams plugin's data is a summary
// under its own tag whose metadata's content is a serialized
// HParamsPluginData{version 0, experiment 2 | session_start_info 3 | session_end_info 4}.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ddplab::tensorboard {

// The first record of every event file: Event{wall_time, file_version "brain.Event:2"}.
std::string fileVersionEvent(double wallTime);

// A finite number beyond float32's range (|value| > 3.4028235e38) cannot be a scalar: it would
// become infinity. It is written as the largest float32 of its sign instead, and whoever writes
// it says so (RunEncoder counts them).
bool overflowsFloat32(double value);
float scalarFloat(double value);

struct Scalar {
    std::string tag;
    double value = 0.0;  // written as scalarFloat(value)
};
// One Event at `step` with a Summary of these scalars.
std::string scalarsEvent(double wallTime, int64_t step, const std::vector<Scalar>& scalars);

// ---------------------------------------------------------------------------------------
// The HParams plugin (its tab shows a table of sessions: their hyperparameters and metrics)
// ---------------------------------------------------------------------------------------
namespace hparams {
inline constexpr char kExperimentTag[] = "_hparams_/experiment";
inline constexpr char kSessionStartTag[] = "_hparams_/session_start_info";
inline constexpr char kSessionEndTag[] = "_hparams_/session_end_info";

enum class Status { Unknown = 0, Success = 1, Failure = 2, Running = 3 };  // api.proto's Status
enum class DatasetType { Unknown = 0, Training = 1, Validation = 2 };     // api.proto's DatasetType

// A hyperparameter's value as google.protobuf.Value holds it: a number, a string or a boolean.
struct Value {
    enum class Kind { Number, Text, Boolean };
    Kind kind = Kind::Number;
    double number = 0.0;
    std::string text;
    bool boolean = false;

    static Value ofNumber(double number) { return {Kind::Number, number, {}, false}; }
    static Value ofText(std::string text) { return {Kind::Text, 0.0, std::move(text), false}; }
    static Value ofBoolean(bool boolean) { return {Kind::Boolean, 0.0, {}, boolean}; }
};

struct HParam {
    std::string name;
    std::string description;
    std::vector<Value> values;  // its discrete domain
};
struct Metric {
    std::string tag;  // a scalar tag of each session's run (group "": the session's own run)
    std::string displayName;
    DatasetType dataset = DatasetType::Unknown;
};

// HParamsPluginData's bytes, for the summary's metadata.
std::string experimentContent(const std::string& description, double timeCreated, const std::vector<HParam>& hparams,
                              const std::vector<Metric>& metrics);
// A session's hyperparameters, by name; sessions of one group_name are one row of the table
// (repeats with other seeds).
std::string sessionStartContent(const std::vector<std::pair<std::string, Value>>& values, const std::string& groupName,
                                double startTime);
std::string sessionEndContent(Status status, double endTime);
}  // namespace hparams

// One Event holding the HParams plugin's summary `tag` with `content` (and the empty float
// tensor TensorBoard's own hparams summaries carry, so that its tensor store keeps it).
std::string hparamsEvent(double wallTime, const std::string& tag, const std::string& content);

}  // namespace ddplab::tensorboard
