// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Splits the engine's stdout (JSON Lines, docs/protocol.md) into events. Reads arrive in
// arbitrary chunks, so the partial last line is kept for the next chunk; a line that grows past
// the cap is dropped with a warning instead of exhausting memory.

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

    qsizetype pendingBytes() const { return m_partial.size(); }
    qint64 malformedLineCount() const { return m_malformedLines; }
    qint64 droppedLineCount() const { return m_droppedLines; }

private:
    void parseLine(QByteArrayView line, StreamBatch& batch);
    void warn(StreamBatch& batch, const QString& message);

    qsizetype m_maxLineBytes;
    QByteArray m_partial;           // the unfinished last line
    bool m_discardingLine = false;  // inside a line that was too long: skip to its newline
    qint64 m_malformedLines = 0;
    qint64 m_droppedLines = 0;
    int m_warningsShown = 0;
};

}  // namespace ddplab::ui
