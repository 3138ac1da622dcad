// MainWindow, continued: presets opened and saved, charts and CSVs exported, and the folder
// those dialogs start in.

#include "window/main_window.hpp"

#include "charts/chart_grid.hpp"
#include "charts/chart_panel.hpp"
#include "client/preset_file.hpp"
#include "client/run_data.hpp"
#include "client/save_file.hpp"
#include "export/export_service.hpp"
#include "export/image_export_dialog.hpp"
#include "setup/parameter_panel.hpp"
#include "window/log_panel.hpp"
#include "window/notice_bar.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace ddplab::ui {

QString MainWindow::lastDirectory() const
{
    return QSettings().value(QStringLiteral("export/lastDirectory"), QDir::homePath()).toString();
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
    const bool written = svg ? ExportService::exportChartSvg(*chart, dialog.path(), dialog.imageSize(), &error)
                             : ExportService::exportChartPng(*chart, dialog.path(), dialog.imageSize(), &error);
    if (written)
        m_log->appendMessage(tr("Exported %1").arg(dialog.path()));
    else
        m_notice->showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
}

bool MainWindow::exportEverything(const QString& directory, QSize imageSize, QString* error)
{
    QList<QSharedPointer<RunData>> runs;
    for (const DisplayedRun& run : m_model.runs())
        runs.append(run.data);
    m_charts->redrawAllNow();
    const QStringList written = ExportService::exportAll(m_charts->panels(), runs, directory, imageSize, error);
    return error->isEmpty() && !written.isEmpty();
}

void MainWindow::exportEverythingInteractively()
{
    if (m_charts->panels().isEmpty()) {
        m_notice->showNotice(NoticeBar::Kind::Information, tr("Nothing to export yet"),
                             tr("Run something, or tick past runs in the Runs list, then export."));
        return;
    }
    ImageExportDialog dialog(ImageExportDialog::Target::Folder, lastDirectory(), ExportService::kDefaultImageSize, this);
    if (dialog.exec() != QDialog::Accepted || dialog.path().isEmpty())
        return;
    rememberDirectory(dialog.path());
    QString error;
    if (exportEverything(dialog.path(), dialog.imageSize(), &error))
        m_log->appendMessage(tr("Exported every chart (PNG and SVG) and the runs' CSVs to %1").arg(dialog.path()));
    else
        m_notice->showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
}

}  // namespace ddplab::ui
