// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Splits the engine's stdout (JSON Lines, docs/protocol.md) into events. Reads arrive in
// arbitrary chunks: the engine's own line reader (engine/core/line_reader.hpp) keeps the partial
// last line for the next chunk and drops a line that grows past the cap, which is counted and
// said in a warning instead of exhausting memory.

#include "core/line_reader.hpp"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QStringList>

namespace ddplab::ui {

// What one chunk of input yielded: the complete events, and a sentence per line that was not one.
struct StreamBatch {
    QList<QJsonObject> events;
    QStringList warnings;
};

class EventStreamParser {
public:
    // A config event with many buckets is a few hundred KiB; nothing real comes near this.
    static constexpr qsizetype kDefaultMaxLineBytes = 8 * 1024 * 1024;

    explicit EventStreamParser(qsizetype maxLineBytes = kDefaultMaxLineBytes);

    StreamBatch feed(const QByteArray& chunk);
    // The stream ended: parses a last line that had no newline.
    StreamBatch finish();

    qsizetype pendingBytes() const { return qsizetype(m_lines.partialBytes()); }
    qint64 malformedLineCount() const { return m_malformedLines; }
    qint64 droppedLineCount() const { return m_droppedLines; }

private:
    void parseLine(QByteArrayView line, StreamBatch& batch);
    void warn(StreamBatch& batch, const QString& message);

    qsizetype m_maxLineBytes;
    LineReader m_lines;
    qint64 m_malformedLines = 0;
    qint64 m_droppedLines = 0;
    int m_warningsShown = 0;
};

}  // namespace ddplab::ui
