// SPDX-License-Identifier: GPL-3.0-or-later
#include "lesson_library.hpp"

#include "client/io/read_file.hpp"
#include "client/library/preset_file.hpp"
#include "client/wire.hpp"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QRegularExpression>
#include <QJsonDocument>

namespace ddplab::ui {
namespace {

// A lesson's explanation: a page of markdown, read within the limit of the lesson itself.
QString readText(const QString& path)
{
    QString ignored;
    return QString::fromUtf8(readRegularFile(path, kMaxSettingsFileBytes, &ignored).value_or(QByteArray()));
}

std::optional<Lesson> parseLesson(const QJsonObject& object, const QString& path, QString* error)
{
    const QFileInfo file(path);
    Lesson lesson;
    lesson.id = object.value(QStringLiteral("id")).toString(file.completeBaseName());
    lesson.title = object.value(QStringLiteral("title")).toString(lesson.id);
    lesson.source = object.value(QStringLiteral("source")).toString();
    lesson.summary = object.value(QStringLiteral("summary")).toString();
    lesson.lookFor = object.value(QStringLiteral("look_for")).toString();
    lesson.prediction = object.value(QStringLiteral("predict")).toString();
    lesson.fewerCoresNote = object.value(QStringLiteral("when_ranks_exceed_cores")).toString();
    const QJsonObject model = object.value(QStringLiteral("throughput_model")).toObject();
    lesson.modelBandwidthBytesPerSecond = model.value(QStringLiteral("bandwidth_gb_per_s")).toDouble() * 1e9;
    lesson.modelLink = model.value(QStringLiteral("link")).toString();
    for (const QJsonValue& chart : object.value(QStringLiteral("charts")).toArray())
        lesson.charts.append(chart.toString());
    if (object.contains(QStringLiteral("x_axis"))) {
        const QString name = object.value(QStringLiteral("x_axis")).toString();
        lesson.xAxis = xAxisFromName(name);
        if (!lesson.xAxis) {
            QStringList names;
            for (XAxis axis : allXAxes())
                names.append(xAxisName(axis));
            *error = QStringLiteral("%1: \"x_axis\" must be one of %2, not \"%3\"").arg(path, names.join(QStringLiteral(", ")), name);
            return std::nullopt;
        }
    }
    const QString explanation = object.value(QStringLiteral("explanation")).toString();
    if (!explanation.isEmpty())
        lesson.explanationMarkdown = readText(file.dir().filePath(explanation));

    const QJsonValue sharding = object.value(QStringLiteral("sharding"));
    if (sharding.isObject()) {
        const QJsonObject settings = sharding.toObject();
        ShardRequest request;
        request.numExamples = settings.value(wire(key::kNumExamples)).toInt();
        request.worldSize = settings.value(wire(key::kWorldSize)).toInt(1);
        request.batchSize = settings.value(wire(key::kBatchSize)).toInt(1);
        request.shuffle = settings.value(wire(key::kShuffle)).toBool(false);
        request.dropLast = settings.value(wire(key::kDropLast)).toBool(false);
        request.seed = settings.value(wire(key::kSeed)).toInt(0);
        if (request.numExamples > 0)
            lesson.sharding = request;
    }

    const QJsonArray runs = object.value(QStringLiteral("runs")).toArray();
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const QJsonObject run = runs.at(i).toObject();
        const QString label = run.value(QStringLiteral("label")).toString(QStringLiteral("run %1").arg(i + 1));
        LessonRun added;
        added.label = label;
        // A run names one of the built-in presets (the folder beside the lessons), so every
        // experiment's settings live in exactly one file; or it carries its config inline.
        if (run.value(QStringLiteral("preset")).isString()) {
            const QString name = run.value(QStringLiteral("preset")).toString();
            QString presetPath = file.dir().filePath(QStringLiteral("../presets/%1.json").arg(name));
            if (!QFileInfo::exists(presetPath))  // a lesson file of one's own may name a built-in preset
                presetPath = QStringLiteral(":/presets/%1.json").arg(name);
            const PresetReadResult preset = readPresetFile(presetPath);
            if (!preset.error.isEmpty()) {
                *error = QStringLiteral("%1: run %2 (\"%3\"): %4").arg(path).arg(i + 1).arg(label, preset.error);
                return std::nullopt;
            }
            added.config = preset.config;
        } else if (run.value(QStringLiteral("config")).isObject()) {
            added.config = run.value(QStringLiteral("config")).toObject();
        } else {
            *error = QStringLiteral("%1: run %2 names neither a \"preset\" nor a \"config\"").arg(path).arg(i + 1);
            return std::nullopt;
        }
        added.checkpointAt = run.value(wire(key::kCheckpointAt)).toString();
        added.meantToFail = run.value(QStringLiteral("expect")).toString() == QLatin1String("failed");
        if (run.contains(QStringLiteral("resume_from_run"))) {
            added.resumeFromRun = run.value(QStringLiteral("resume_from_run")).toInt(-1);
            const bool earlier = added.resumeFromRun >= 0 && added.resumeFromRun < i;
            if (!earlier || lesson.runs.at(added.resumeFromRun).checkpointAt.isEmpty()) {
                *error = QStringLiteral("%1: run %2 (\"%3\"): \"resume_from_run\" must name an earlier run (0 to %4) that has "
                                        "\"checkpoint_at\"")
                             .arg(path).arg(i + 1).arg(label).arg(i - 1);
                return std::nullopt;
            }
        }
        lesson.runs.append(added);
    }
    if (lesson.runs.isEmpty()) {
        *error = QStringLiteral("%1: a lesson needs a \"runs\" list with at least one run").arg(path);
        return std::nullopt;
    }
    return lesson;
}

}  // namespace

std::optional<Lesson> LessonLibrary::loadFile(const QString& path, QString* error)
{
    QString ignored;
    QString& message = error ? *error : ignored;
    const std::optional<QJsonObject> object = readSettingsFile(path, QStringLiteral("lesson %1").arg(path), &message);
    if (!object)
        return std::nullopt;
    return parseLesson(*object, path, &message);
}

LessonLibrary LessonLibrary::load(const QString& folder)
{
    LessonLibrary library;
    const QDir directory(folder);
    const QStringList files = directory.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString& name : files) {
        QString error;
        std::optional<Lesson> lesson = loadFile(directory.filePath(name), &error);
        if (lesson)
            library.m_lessons.append(*lesson);
        else
            library.m_problems.append(error);
    }
    std::sort(library.m_lessons.begin(), library.m_lessons.end(), [](const Lesson& a, const Lesson& b) { return a.id < b.id; });
    return library;
}

const Lesson* LessonLibrary::find(const QString& id) const
{
    for (const Lesson& lesson : m_lessons) {
        if (lesson.id == id)
            return &lesson;
    }
    return nullptr;
}

QStringList LessonLibrary::ids() const
{
    QStringList ids;
    for (const Lesson& lesson : m_lessons)
        ids.append(lesson.id);
    return ids;
}

QString lessonMenuTitle(const Lesson& lesson)
{
    static const QRegularExpression kSourceEnds(QStringLiteral("[,(]"));
    const QString source = lesson.source.section(kSourceEnds, 0, 0).trimmed();
    return source.isEmpty() ? lesson.title : QStringLiteral("%1 · %2").arg(source, lesson.title);
}

QString machineNote(const Lesson& lesson, int cores)
{
    int ranks = 1;
    for (const LessonRun& run : lesson.runs)
        ranks = std::max(ranks, run.config.value(wire(key::kWorldSize)).toInt(1));
    if (lesson.fewerCoresNote.isEmpty() || ranks <= cores)
        return QString();
    return QObject::tr("On this computer (%1 for up to %2 ranks): %3")
        .arg(cores == 1 ? QObject::tr("1 core") : QObject::tr("%1 cores").arg(cores))
        .arg(ranks)
        .arg(lesson.fewerCoresNote);
}

}  // namespace ddplab::ui
