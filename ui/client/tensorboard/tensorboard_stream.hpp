// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TensorBoard files written as runs stream (off until a folder is given; the window's File menu
// turns it on and remembers it): each run of a LabSession goes to
// <folder>/<run id>_<name>/events.out.tfevents.<start>.<host>, its events encoded by the
// engine's own writer as they arrive (engine/tensorboard/run_encoder.hpp), appended and flushed
// after each batch, so `tensorboard --logdir <folder>` follows runs live. Only scalars: a
// study's hyperparameters are written by its export (study/study_tensorboard.hpp).

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QSharedPointer>
#include <QString>

#include <memory>

namespace ddplab::ui {

class LabSession;
class RunData;

class TensorBoardStream : public QObject {
    Q_OBJECT

public:
    explicit TensorBoardStream(const LabSession& session, QObject* parent = nullptr);
    ~TensorBoardStream() override;

    // Empty: off. A run already streaming goes on to the folder it started in.
    void setFolder(const QString& folder);
    const QString& folder() const { return m_folder; }
    bool isOn() const { return !m_folder.isEmpty(); }
    // Where the window puts them unless told otherwise: the lab's data folder, beside its runs.
    static QString defaultFolder();

signals:
    // A run's file could not be made or written (said once per run, which then streams no
    // more), or it held values beyond float32's range (said when the run ends).
    void problem(const QString& message);

private:
    struct Writer;
    void start(const QSharedPointer<RunData>& run);
    void write(const QSharedPointer<RunData>& run, const QList<QJsonObject>& events);
    void finish(const QSharedPointer<RunData>& run);

    QString m_folder;
    QHash<QString, std::shared_ptr<Writer>> m_writers;  // by run id, while it streams
};

}  // namespace ddplab::ui
