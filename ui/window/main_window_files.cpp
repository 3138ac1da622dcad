// MainWindow, continued: presets opened and saved, charts and CSVs exported, and the folder
// those dialogs start in.

#include "charts/chart_grid.hpp"
#include "charts/chart_panel.hpp"
#include "client/io/save_file.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "export/export_service.hpp"
#include "export/image_export_dialog.hpp"
#include "lessons/lesson_panel.hpp"
#include "setup/parameter_panel.hpp"
#include "window/log_panel.hpp"
#include "window/main_window.hpp"
#include "window/notice_bar.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>
#include <QDateTime>

namespace ddplab::ui {

QString MainWindow::lastDirectory() const
{
    // Until the first export: a folder of the lab's own among the user's documents, not home.
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString fallback = QDir(documents.isEmpty() ? QDir::homePath() : documents).filePath(QStringLiteral("DDP Lab exports"));
    return QSettings().value(QStringLiteral("export/lastDirectory"), fallback).toString();
}

void MainWindow::rememberDirectory(const QString& path)
{
    const QFileInfo info(path);
    QSettings().setValue(QStringLiteral("export/lastDirectory"), info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QString MainWindow::askSavePath(const QString& title, const QString& name, const QString& suffix, const QString& filter)
{
    const QString suggested = QDir(lastDirectory()).filePath(ExportService::fileNameFor(name) + suffix);
    const QString path = QFileDialog::getSaveFileName(this, title, suggested, filter);
    if (!path.isEmpty())
        rememberDirectory(path);
    return path;
}

void MainWindow::openPreset()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Preset"), lastDirectory(), tr("Presets (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    rememberDirectory(path);
    const PresetReadResult preset = readPresetFile(path);
    if (!preset.error.isEmpty()) {
        m_notice->showNotice(NoticeBar::Kind::Error, tr("Cannot open the preset"), preset.error);
        return;
    }
    const QStringList unknown = m_parameters->setValues(preset.config);
    if (!unknown.isEmpty()) {
        m_notice->showNotice(NoticeBar::Kind::Warning, tr("The preset has keys the engine does not know"),
                             tr("Ignored: %1. Everything else was loaded.").arg(unknown.join(QStringLiteral(", "))));
    } else {
        m_notice->dismiss();
    }
    m_log->appendMessage(tr("Loaded the preset %1").arg(path));
}

void MainWindow::savePreset()
{
    if (!m_parameters->isValid()) {
        m_notice->showNotice(NoticeBar::Kind::Warning, tr("Fix the marked settings before saving them as a preset"),
                             tr("A preset must be something the engine accepts."));
        return;
    }
    QString path = askSavePath(tr("Save Settings as Preset"), defaultRunName(m_parameters->values()),
                               QStringLiteral(".json"), tr("Presets (*.json)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    QString error;
    if (!writeFileAtomically(path, presetFileContents(m_parameters->values()), &error)) {
        m_notice->showNotice(NoticeBar::Kind::Error, tr("Cannot save the preset"), error);
        return;
    }
    m_log->appendMessage(tr("Saved the preset %1 (run it with: ddplab-engine run --config %1)").arg(path));
}

void MainWindow::exportChart(ChartPanel* chart)
{
    const QString suggested = QDir(lastDirectory()).filePath(chart->definition().id + QStringLiteral(".png"));
    ImageExportDialog dialog(ImageExportDialog::Target::File, suggested, ExportService::kDefaultImageSize, this);
    if (dialog.exec() != QDialog::Accepted || dialog.path().isEmpty())
        return;
    rememberDirectory(dialog.path());
    QString error;
    const bool svg = dialog.path().endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive);
    QDir().mkpath(QFileInfo(dialog.path()).absolutePath());
    const bool written = svg ? ExportService::exportChartSvg(*chart, dialog.path(), dialog.format(), &error)
                             : ExportService::exportChartPng(*chart, dialog.path(), dialog.format(), &error);
    if (written)
        m_log->appendMessage(tr("Exported %1").arg(dialog.path()));
    else
        m_notice->showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
}

bool MainWindow::exportEverything(const QString& directory, QSize imageSize, double scale, QString* error)
{
    chartGrid()->redrawAllNow();
    const QStringList written = ExportService::exportAll(chartGrid()->panels(), m_model.runs(), directory, {imageSize, scale}, error);
    return error->isEmpty() && !written.isEmpty();
}

void MainWindow::exportEverythingInteractively()
{
    if (chartGrid()->panels().isEmpty()) {
        m_notice->showNotice(NoticeBar::Kind::Information, tr("Nothing to export yet"),
                             tr("Run something, or tick past runs in the Runs list, then export."));
        return;
    }
    // A folder of its own for what is on display: the lesson's or the run's name and the time.
    const QString name = m_model.runs().size() == 1 ? m_model.runs().first().label : m_lessonPanel->currentLessonId();
    const QString folder = QDir(lastDirectory()).filePath(ExportService::fileNameFor(name) + QLatin1Char('-') +
                                                          QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmm")));
    ImageExportDialog dialog(ImageExportDialog::Target::Folder, folder, ExportService::kDefaultImageSize, this);
    if (dialog.exec() != QDialog::Accepted || dialog.path().isEmpty())
        return;
    rememberDirectory(QFileInfo(dialog.path()).absolutePath());
    QString error;
    if (exportEverything(dialog.path(), dialog.format().size, dialog.format().scale, &error))
        m_log->appendMessage(tr("Exported every chart (PNG and SVG) and the runs' CSVs to %1").arg(dialog.path()));
    else
        m_notice->showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
}

}  // namespace ddplab::ui
