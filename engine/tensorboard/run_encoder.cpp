// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_encoder.hpp"

#include "core/protocol_names.hpp"
#include "tensorboard/scalar_tags.hpp"
#include "tensorboard/tfrecord.hpp"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

namespace ddplab::tensorboard {
namespace {

namespace type = protocol::type;
namespace field = protocol::field;

// Larger steps are not whole numbers in a double any more (RunData's limit).
constexpr double kLargestStep = 9e15;
constexpr size_t kMaxFolderName = 120;  // well under any file system's 255 bytes

std::optional<double> numberOf(const EventNumbers& event, const char* name)
{
    for (const auto& [field, value] : event.numbers) {
        if (field == name)
            return value;
    }
    return std::nullopt;
}

// `name` of `event` when it is a step a run can have: a whole number from 0 to kLargestStep.
std::optional<int64_t> stepIn(const EventNumbers& event, const char* name)
{
    const std::optional<double> step = numberOf(event, name);
    if (!step || !std::isfinite(*step) || *step < 0 || *step > kLargestStep || std::floor(*step) != *step)
        return std::nullopt;
    return int64_t(*step);
}

}  // namespace

RunEncoder::RunEncoder(double startSeconds)
    : m_start(startSeconds)
{
}

std::string RunEncoder::header()
{
    if (m_headerGiven)
        return {};
    m_headerGiven = true;
    return tfRecord(fileVersionEvent(m_start));
}

double RunEncoder::wallTimeAt(int64_t step) const
{
    // The last step taken at or before `step` (evaluations and epochs share their step's time).
    const auto after = std::upper_bound(m_walls.begin(), m_walls.end(), step,
                                        [](int64_t wanted, const std::pair<int64_t, double>& taken) { return wanted < taken.first; });
    return m_start + (after == m_walls.begin() ? 0.0 : (after - 1)->second);
}

std::string RunEncoder::encode(const EventNumbers& event)
{
    std::string records = header();
    int64_t step = 0;
    if (event.type == type::kStep) {
        const std::optional<int64_t> taken = stepIn(event, field::kStep);
        if (!taken || (!m_walls.empty() && *taken <= m_walls.back().first))
            return records;  // steps only grow within a run
        step = *taken;
        const std::optional<double> stepMs = numberOf(event, field::kStepMs);
        if (stepMs && std::isfinite(*stepMs) && *stepMs > 0)
            m_summedStepSeconds += *stepMs / 1000.0;
        const std::optional<double> wall = numberOf(event, field::kWallS);
        m_walls.emplace_back(step, wall && std::isfinite(*wall) && *wall >= 0 ? *wall : m_summedStepSeconds);
    } else if (event.type == type::kEval || event.type == type::kEpoch) {
        const std::optional<int64_t> taken = stepIn(event, field::kStep);
        if (!taken)
            return records;
        step = *taken;
    } else if (event.type == type::kSummary) {
        step = lastStep();
    } else if (event.type == type::kConfig) {
        if (m_configGiven)
            return records;
        m_configGiven = true;
        step = stepIn(event, field::kResumedStep).value_or(0);
    } else {
        return records;
    }
    std::vector<Scalar> scalars;
    for (const auto& [name, value] : event.numbers) {
        std::string tag = scalarTag(event.type, name);
        if (!tag.empty() && std::isfinite(value))
            scalars.push_back({std::move(tag), value});
    }
    const double wallTime = event.type == type::kConfig ? m_start : wallTimeAt(step);
    return records + record(step, wallTime, scalars);
}

std::string RunEncoder::encodeScalars(int64_t step, double wallTime, const std::vector<Scalar>& scalars)
{
    return header() + record(step, wallTime, scalars);
}

std::string RunEncoder::record(int64_t step, double wallTime, const std::vector<Scalar>& scalars)
{
    if (scalars.empty())
        return {};
    for (const Scalar& scalar : scalars) {
        if (!overflowsFloat32(scalar.value))
            continue;
        if (m_overflows++ == 0) {
            std::ostringstream first;
            first << scalar.tag << " = " << scalar.value << " at step " << step;
            m_firstOverflow = first.str();
        }
    }
    return tfRecord(scalarsEvent(wallTime, step, scalars));
}

std::string RunEncoder::overflowSentence() const
{
    if (m_overflows == 0)
        return {};
    std::ostringstream sentence;
    sentence.precision(9);
    if (m_overflows == 1)
        sentence << "1 value is beyond float32's range, which is all TensorBoard keeps of a scalar: " << m_firstOverflow
                 << ", written as ";
    else
        sentence << m_overflows << " values are beyond float32's range, which is all TensorBoard keeps of a scalar (the first: "
                 << m_firstOverflow << "), written as ";
    sentence << "the largest float32 of the same sign (" << double(FLT_MAX) << ")";
    return sentence.str();
}

std::string eventFileName(double startSeconds, std::string_view host, std::string_view suffix)
{
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%010lld", static_cast<long long>(std::max(0.0, std::floor(startSeconds))));
    std::string name = std::string("events.out.tfevents.") + seconds + "." + folderName(host);
    if (!suffix.empty())
        name += "." + folderName(suffix);
    return name;
}

std::string folderName(std::string_view text)
{
    std::string name;
    for (const char c : text) {
        const unsigned char byte = static_cast<unsigned char>(c);
        const bool kept = (byte < 128 && std::isalnum(byte)) || c == '.' || c == '-';
        if (kept)
            name.push_back(c);
        else if (name.empty() || name.back() != '_')
            name.push_back('_');
    }
    const size_t lead = name.find_first_not_of("._");
    name.erase(0, lead == std::string::npos ? name.size() : lead);  // no hidden folder, no "..", no leading filler
    if (name.size() > kMaxFolderName)
        name.resize(kMaxFolderName);
    while (!name.empty() && name.back() == '_')
        name.pop_back();
    return name.empty() ? "run" : name;
}

}  // namespace ddplab::tensorboard
