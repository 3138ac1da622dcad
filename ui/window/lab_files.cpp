// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab_files.hpp"

#include "charts/chart_grid.hpp"
#include "charts/chart_panel.hpp"
#include "charts/run_model.hpp"
#include "client/io/save_file.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_record.hpp"
#include "export/export_folder.hpp"
#include "export/export_service.hpp"
#include "export/image_export_dialog.hpp"
#include "lessons/lesson_panel.hpp"
#include "setup/parameter_panel.hpp"
#include "window/log_panel.hpp"
#include "window/notice_bar.hpp"
#include "window/script_clipboard.hpp"

#include <QApplication>
#include <QDateTime>
#include <QPointer>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace ddplab::ui {
namespace {

// A modal dialog gives the keyboard back to where it was: without this, after the export dialog
// closed no widget had the focus and every key did nothing until a click.
class FocusKeeper {
public:
    explicit FocusKeeper(QWidget* window)
        : m_window(window)
        , m_focus(QApplication::focusWidget())
    {
    }
    ~FocusKeeper()
    {
        if (!m_window)
            return;
        m_window->activateWindow();
        if (m_focus && m_focus->isVisible())
            m_focus->setFocus(Qt::OtherFocusReason);
        else
            m_window->setFocus(Qt::OtherFocusReason);
    }

private:
    QPointer<QWidget> m_window;
    QPointer<QWidget> m_focus;
};

// "3 files in /home/…/exports": what the confirmation on screen says.
QString writtenWhere(int count, const QString& folder)
{
    return QObject::tr("%n file(s) in %1", nullptr, count).arg(QDir::toNativeSeparators(folder));
}

}  // namespace

LabFiles::LabFiles(const RunModel& model, Panes panes, QWidget* dialogParent)
    : QObject(dialogParent), m_model(model), m_panes(panes), m_dialogParent(dialogParent)
{
}

void LabFiles::openPreset()
{
    const QString path =
        QFileDialog::getOpenFileName(m_dialogParent, tr("Open Preset"), lastExportFolder(), tr("Presets (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    rememberExportFolder(path);
    const PresetReadResult preset = readPresetFile(path);
    if (!preset.error.isEmpty()) {
        m_panes.notice.showNotice(NoticeBar::Kind::Error, tr("Cannot open the preset"), preset.error);
        return;
    }
    const QStringList unknown = m_panes.parameters.setValues(preset.config);
    if (!unknown.isEmpty()) {
        m_panes.notice.showNotice(NoticeBar::Kind::Warning, tr("The preset has keys the engine does not know"),
                                  tr("Ignored: %1. Everything else was loaded.").arg(unknown.join(QStringLiteral(", "))));
    } else {
        m_panes.notice.dismiss();
    }
    m_panes.log.appendMessage(tr("Loaded the preset %1").arg(path));
}

void LabFiles::savePreset()
{
    if (!m_panes.parameters.isValid()) {
        m_panes.notice.showNotice(NoticeBar::Kind::Warning, tr("Fix the marked settings before saving them as a preset"),
                                  tr("A preset must be something the engine accepts."));
        return;
    }
    QString path = askSavePath(m_dialogParent, tr("Save Settings as Preset"), defaultRunName(m_panes.parameters.values()),
                               QStringLiteral(".json"), tr("Presets (*.json)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    QString error;
    if (!writeFileAtomically(path, presetFileContents(m_panes.parameters.values()), &error)) {
        m_panes.notice.showNotice(NoticeBar::Kind::Error, tr("Cannot save the preset"), error);
        return;
    }
    m_panes.log.appendMessage(tr("Saved the preset %1 (run it with: ddplab-engine run --config %1)").arg(path));
}

void LabFiles::copyScript()
{
    if (!m_panes.parameters.isValid()) {
        m_panes.notice.showNotice(NoticeBar::Kind::Warning, tr("Fix the marked settings before copying them as a PyTorch script"),
                                  tr("A script must be of settings the engine accepts."));
        return;
    }
    const CopiedScript copied = copyPyTorchScript(m_panes.parameters.values(), tr("Settings %1").arg(defaultRunName(m_panes.parameters.values())));
    if (copied.copied)
        m_panes.log.appendMessage(copied.message);
    else
        m_panes.notice.showNotice(NoticeBar::Kind::Error, tr("Cannot copy the settings as a PyTorch script"), copied.message);
}

void LabFiles::exportChart(ChartPanel* chart)
{
    const QString suggested = QDir(lastExportFolder()).filePath(chart->definition().id + QStringLiteral(".png"));
    const FocusKeeper focus(m_dialogParent);
    ImageExportDialog dialog(ImageExportDialog::Target::File, suggested, ExportService::kDefaultImageSize, m_dialogParent);
    if (dialog.exec() != QDialog::Accepted || dialog.path().isEmpty())
        return;
    rememberExportFolder(dialog.path());
    QString error;
    const bool svg = dialog.path().endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive);
    QDir().mkpath(QFileInfo(dialog.path()).absolutePath());
    ImageFormat format = dialog.format();
    if (format.slide)
        format.title = slideTitle();
    const bool written = dialog.isData() ? ExportService::exportChartCsv(chart->definition(), m_model.runs(), dialog.path(), &error)
                         : svg           ? ExportService::exportChartSvg(*chart, dialog.path(), format, &error)
                                         : ExportService::exportChartPng(*chart, dialog.path(), format, &error);
    if (written) {
        m_panes.log.appendMessage(tr("Exported %1").arg(dialog.path()));
        // Said on screen, where the teacher looks: the Log is hidden in presentation mode.
        m_panes.notice.showNotice(NoticeBar::Kind::Information, tr("Exported \"%1\"").arg(chart->definition().title),
                                  QDir::toNativeSeparators(dialog.path()));
    } else {
        m_panes.notice.showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
    }
}

bool LabFiles::exportEverything(const QString& directory, ImageFormat format, QString* error)
{
    m_panes.charts.redrawAllNow();
    const QStringList written = ExportService::exportAll(m_panes.charts.panels(), m_model.runs(), directory, format, error);
    m_lastWritten = int(written.size());
    return error->isEmpty() && !written.isEmpty();
}

QString LabFiles::slideTitle() const
{
    const QList<DisplayedRun>& runs = m_model.runs();
    if (runs.isEmpty())
        return QString();
    const QString lessonId = runs.first().data->record().lessonId;
    const bool oneLesson = !lessonId.isEmpty() && std::all_of(runs.begin(), runs.end(), [&](const DisplayedRun& run) {
        return run.data->record().lessonId == lessonId;
    });
    if (oneLesson) {
        const QString title = m_panes.lesson.lessonTitle(lessonId);
        if (!title.isEmpty())
            return title;
    }
    return runs.size() == 1 ? runs.first().label : tr("%1 runs compared").arg(runs.size());
}

void LabFiles::exportEverythingInteractively()
{
    if (m_panes.charts.panels().isEmpty()) {
        m_panes.notice.showNotice(NoticeBar::Kind::Information, tr("Nothing to export yet"),
                                  tr("Run something, or tick past runs in the Runs list, then export."));
        return;
    }
    // A folder of its own for what is on display: the lesson's or the run's name and the time.
    const QString name = m_model.runs().size() == 1 ? m_model.runs().first().label : m_panes.lesson.currentLessonId();
    const QString folder = QDir(lastExportFolder()).filePath(ExportService::fileNameFor(name) + QLatin1Char('-') +
                                                             QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmm")));
    const FocusKeeper focus(m_dialogParent);
    ImageExportDialog dialog(ImageExportDialog::Target::Folder, folder, ExportService::kDefaultImageSize, m_dialogParent);
    if (dialog.exec() != QDialog::Accepted || dialog.path().isEmpty())
        return;
    rememberExportFolder(QFileInfo(dialog.path()).absolutePath());
    QString error;
    ImageFormat format = dialog.format();
    if (format.slide)
        format.title = slideTitle();
    if (exportEverything(dialog.path(), format, &error)) {
        m_panes.log.appendMessage(tr("Exported every chart (PNG and SVG) and the runs' CSVs to %1").arg(dialog.path()));
        m_panes.notice.showNotice(NoticeBar::Kind::Information,
                                  tr("Exported %n chart(s) and %1 run(s)", nullptr, int(m_panes.charts.panels().size())).arg(m_model.runs().size()),
                                  writtenWhere(m_lastWritten, dialog.path()));
    } else {
        m_panes.notice.showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
    }
}

}  // namespace ddplab::ui
