// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's files: presets opened into Setup and saved from it, one chart exported as an
// image, and everything on display (every chart as PNG and SVG, every run as CSV) into a folder.
// An export says so in the notice bar (in presentation mode the status bar: NoticeBar::setBrief), and the
// keyboard goes back where it was when its dialog closes.

#include "plots/image_writer.hpp"

#include <QObject>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

class ChartGrid;
class ChartPanel;
class LessonPanel;
class LogPanel;
class NoticeBar;
class ParameterPanel;
class RunModel;

class LabFiles : public QObject {
    Q_OBJECT

public:
    struct Panes {
        ParameterPanel& parameters;
        ChartGrid& charts;
        LessonPanel& lesson;
        LogPanel& log;
        NoticeBar& notice;
    };
    LabFiles(const RunModel& model, Panes panes, QWidget* dialogParent);

    void openPreset();
    void savePreset();
    void copyScript();  // Setup's settings as a PyTorch script, on the clipboard
    void exportChart(ChartPanel* chart);
    // Every chart (PNG + SVG) and every displayed run's CSV into `directory`.
    bool exportEverything(const QString& directory, ImageFormat format, QString* error);
    void exportEverythingInteractively();
    // A slide's title: the lesson's when its runs are on display, else the one run's name.
    QString slideTitle() const;

private:
    const RunModel& m_model;
    Panes m_panes;
    QWidget* m_dialogParent;
    int m_lastWritten = 0;  // files the last exportEverything wrote
};

}  // namespace ddplab::ui
