// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading a file the lab keeps or is given — a run's meta.json, config.json and events.jsonl;
// a preset, lesson or study file — with the engine's rules for a config: only a regular file
// (a FIFO would block, a device such as /dev/zero never ends), opened without blocking, never
// more than a bound. Built-in files (":/presets/...") come from Qt's resources. Files of
// settings (presets, lessons, study files) are then parsed as the engine parses a config
// (library/preset_file.hpp: readSettingsFile).

#include <QByteArray>
#include <QString>

#include <optional>

namespace ddplab::ui {

// One regular file, read in pieces (an events file may be large).
class RegularFile {
public:
    RegularFile() = default;
    ~RegularFile();
    RegularFile(const RegularFile&) = delete;
    RegularFile& operator=(const RegularFile&) = delete;

    // False when `path` is not a regular file one can read; `why` then says so as the end of
    // a sentence about the file ("is a named pipe (FIFO)", "cannot be read: No such file ...").
    bool open(const QString& path, QString* why);
    qint64 size() const { return m_size; }
    // Up to `maxBytes` more; empty at the end of the file or on an error (`error()` says).
    QByteArray read(qint64 maxBytes);
    // Up to `maxBytes` from `offset` on (the end of a long file), wherever read() stands.
    QByteArray readAt(qint64 offset, qint64 maxBytes);
    const QString& error() const { return m_error; }

private:
    int m_fd = -1;
    qint64 m_size = 0;
    QString m_error;
};

// The whole file when it is a regular file of at most `limit` bytes; else nothing, and `why`
// (as above; "is 2147483648 bytes; at most 1048576").
std::optional<QByteArray> readRegularFile(const QString& path, qint64 limit, QString* why);

}  // namespace ddplab::ui
