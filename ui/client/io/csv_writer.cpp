// SPDX-License-Identifier: GPL-3.0-or-later
#include "csv_writer.hpp"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>

namespace ddplab::ui {
namespace {

QString quotedIfNeeded(QString cell)
{
    static const QRegularExpression kNeedsQuotes(QStringLiteral("[,\"\r\n]"));
    if (!cell.contains(kNeedsQuotes))
        return cell;
    return QLatin1Char('"') + cell.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

}  // namespace

CsvWriter::CsvWriter(const QStringList& header)
{
    append(header);
}

void CsvWriter::addRow(const QStringList& cells)
{
    append(cells);
}

void CsvWriter::append(const QStringList& cells)
{
    QStringList row;
    row.reserve(cells.size());
    for (const QString& cell : cells)
        row.append(quotedIfNeeded(cell));
    m_csv += row.join(QLatin1Char(',')).toUtf8() + '\n';
}

QString CsvWriter::number(double value)
{
    return std::isfinite(value) ? QString::number(value, 'g', QLocale::FloatingPointShortest) : QString();
}

}  // namespace ddplab::ui
