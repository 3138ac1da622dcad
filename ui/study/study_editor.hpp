// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Study page's builder: a study as a file would say it, made by hand. It starts from a
// built-in study, a study file, or the Setup pane's settings as the base; the person edits the
// axes (a key and its values or range per row; where it applies, for an axis that only some
// values of another need; rows ticked "together" advance together instead of combining), the
// repeats and the target with the measure it is judged on. What it builds goes through the study-file reader
// (parseStudy), so the window can only run what `ddplab --study` would accept.

#include "client/study/study_file.hpp"

#include <QJsonObject>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTableWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

class StudyEditor : public QWidget {
    Q_OBJECT

public:
    explicit StudyEditor(QWidget* parent = nullptr);

    // A study to run as it is, or to change; `folder` is where its explanation is read from.
    void setStudy(const StudySpec& spec, const QString& folder);
    // New base settings (the Setup pane's), the axes kept.
    void setBase(const QJsonObject& base, const QString& describedAs);

    // The study as a file would hold it, and read back with the file reader's checks.
    QJsonObject studyJson() const;
    StudyReadResult read() const;

    // `whenText`: where the axis applies ("optimizer = sgd"); empty: everywhere.
    void addAxis(const QString& key, const QString& valuesText, bool together = false, const QString& whenText = QString());
    int axisCount() const;

signals:
    void changed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void removeSelectedAxes();
    void updateBatchSplitRow();
    // The axes table's columns sized to show each header and chooser whole (at the next turn of
    // the event loop: a font reaches the table's header after the table itself).
    void fitAxesColumnsLater();
    void fitAxesColumns();

    QJsonObject m_base;
    QJsonObject m_about;  // id, title, source, summary, look_for, explanation, show: kept as loaded
    StudyTarget m_loadedTarget;  // its trained_share is kept while the target stays as loaded
    QString m_folder;
    QLabel* m_baseLabel = nullptr;
    QTableWidget* m_axes = nullptr;
    QWidget* m_splitRow = nullptr;
    QComboBox* m_split = nullptr;
    QSpinBox* m_maxRanks = nullptr;
    QSpinBox* m_repeats = nullptr;
    QComboBox* m_targetMetric = nullptr;
    QDoubleSpinBox* m_targetValue = nullptr;
    QCheckBox* m_stopAtTarget = nullptr;
    bool m_fitPending = false;
};

}  // namespace ddplab::ui
