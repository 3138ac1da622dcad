// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CSV as spreadsheets, pandas and plotting tools read it (RFC 4180): a header row, then one row
// per record; a cell holding a comma, a quote or a line break is quoted. Numbers are written in
// the shortest form that reads back as the same double; a value that is not a finite number is
// an empty cell. Every CSV the lab writes (a run's metrics, a study's points) goes through here.

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

class CsvWriter {
public:
    explicit CsvWriter(const QStringList& header);

    // Cells as text; quoted here where they need it.
    void addRow(const QStringList& cells);
    const QByteArray& contents() const { return m_csv; }

    static QString number(double value);

private:
    void append(const QStringList& cells);

    QByteArray m_csv;
};

}  // namespace ddplab::ui
