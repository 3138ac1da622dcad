// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_stream_parser.hpp"

#include "client/wire.hpp"

#include <QJsonDocument>
#include <QJsonParseError>

namespace ddplab::ui {
namespace {
// A broken engine could print millions of bad lines: show the first few, count the rest.
constexpr int kMaxWarningsShown = 20;
// How much of a bad line a warning quotes.
constexpr qsizetype kExcerptBytes = 120;

QString excerpt(QByteArrayView line)
{
    QString text = QString::fromUtf8(line.first(std::min(line.size(), kExcerptBytes)));
    if (line.size() > kExcerptBytes)
        text += QStringLiteral("…");
    return text;
}
}  // namespace

EventStreamParser::EventStreamParser(qsizetype maxLineBytes)
    : m_maxLineBytes(maxLineBytes)
    , m_lines(size_t(maxLineBytes), size_t(kExcerptBytes))
{
}

StreamBatch EventStreamParser::feed(const QByteArray& chunk)
{
    StreamBatch batch;
    m_lines.append(chunk.constData(), size_t(chunk.size()));
    while (std::optional<LineReader::Line> line = m_lines.take()) {
        if (line->overlong) {
            ++m_droppedLines;
            warn(batch, QStringLiteral("dropped an engine output line longer than %1 MiB").arg(m_maxLineBytes / (1024 * 1024)));
            continue;
        }
        parseLine(QByteArrayView(line->text.data(), qsizetype(line->text.size())), batch);
    }
    return batch;
}

StreamBatch EventStreamParser::finish()
{
    StreamBatch batch = feed(QByteArray());
    const std::string rest = m_lines.takeRest();
    if (!rest.empty())
        parseLine(QByteArrayView(rest.data(), qsizetype(rest.size())), batch);
    return batch;
}

void EventStreamParser::parseLine(QByteArrayView line, StreamBatch& batch)
{
    if (line.endsWith('\r'))
        line.chop(1);
    if (line.trimmed().isEmpty())
        return;
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(line.toByteArray(), &error);
    if (error.error != QJsonParseError::NoError) {
        ++m_malformedLines;
        warn(batch, QStringLiteral("ignored a malformed engine output line (%1 at byte %2): %3")
                        .arg(error.errorString())
                        .arg(error.offset)
                        .arg(excerpt(line)));
        return;
    }
    if (!document.isObject() || !document.object().value(wire(field::kType)).isString()) {
        ++m_malformedLines;
        warn(batch, QStringLiteral("ignored an engine output line that is not an event object: %1").arg(excerpt(line)));
        return;
    }
    batch.events.append(document.object());
}

void EventStreamParser::warn(StreamBatch& batch, const QString& message)
{
    if (m_warningsShown < kMaxWarningsShown)
        batch.warnings.append(message);
    else if (m_warningsShown == kMaxWarningsShown)
        batch.warnings.append(QStringLiteral("further bad engine output lines are counted but not shown"));
    ++m_warningsShown;
}

}  // namespace ddplab::ui
