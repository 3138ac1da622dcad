// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's TensorBoard files (docs/tensorboard.md): File → Export Runs to TensorBoard… writes
// the runs selected in the Runs list (none selected: every stored run), a study's run bringing its
// whole study with its hyperparameters, into a folder; File → Write TensorBoard Files During Runs
// (off by default, kept in the window's settings) writes each new run's scalars as they arrive
// (client/tensorboard/tensorboard_stream.hpp).

#include <QObject>
#include <QString>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

class LabSession;
class LogPanel;
class RunListPanel;
class RunStore;
class TensorBoardStream;
struct LabActions;
struct WindowSettings;

class TensorBoardFiles : public QObject {
    Q_OBJECT

public:
    struct Panes {
        RunListPanel& list;
        LogPanel& log;
    };
    // Takes the two actions (exportTensorBoard, streamTensorBoard) of `actions` and answers them.
    TensorBoardFiles(const RunStore& store, const LabSession& session, const LabActions& actions, Panes panes, QWidget* dialogParent);

    // Asks for a folder, then exports what the list has selected (or every run) there.
    void exportInteractively();
    // What exportInteractively does once the folder is known; the sentence the Log shows.
    QString exportTo(const QString& directory);

    void setStreaming(bool on);
    bool isStreaming() const;
    // Where runs stream: the settings' folder, else TensorBoardStream::defaultFolder().
    QString streamFolder() const;

    void restore(const WindowSettings& settings);
    void saveInto(WindowSettings& settings) const;

private:
    const RunStore& m_store;
    const LabActions& m_actions;
    Panes m_panes;
    QWidget* m_dialogParent;
    TensorBoardStream* m_stream;
    QString m_streamFolder;  // empty: the default
};

}  // namespace ddplab::ui
