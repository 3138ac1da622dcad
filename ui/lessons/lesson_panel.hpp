// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Lesson pane beside the charts: pick a lesson, read what it shows and what to look for,
// and run all of its runs in sequence (they are overlaid with a legend). The text is one
// scrolling document, so a long explanation never squeezes the rest.

#include "client/library/lesson_library.hpp"

#include <QHash>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QPushButton;
class QTextBrowser;
QT_END_NAMESPACE

namespace ddplab::ui {

class LessonPanel : public QWidget {
    Q_OBJECT

public:
    explicit LessonPanel(const LessonLibrary& library, QWidget* parent = nullptr);

    void selectLesson(const QString& lessonId);
    QString currentLessonId() const;
    QString lessonTitle(const QString& lessonId) const;  // "" for no such lesson
    void setRunning(bool running);
    // How long each lesson takes here ("about 40 s", by lesson id): on the Run button, and in
    // the picker beside each title.
    void setDurations(const QHash<QString, QString>& durations);
    QString runButtonText() const;
    // Predict first: the lesson's question in place of what to look for and its explanation,
    // until the class has guessed (false shows them again).
    void setOutcomeHidden(bool hidden);
    bool outcomeHidden() const { return m_outcomeHidden; }

    // The explanation as shown, for tests.
    const QTextBrowser* text() const { return m_text; }

signals:
    void lessonSelected(const QString& lessonId);
    void runLessonRequested(const QString& lessonId);

protected:
    void changeEvent(QEvent* event) override;

private:
    void showLesson(const Lesson* lesson);

    const LessonLibrary& m_library;
    QHash<QString, QString> m_durations;
    bool m_outcomeHidden = false;
    QComboBox* m_picker = nullptr;
    QPushButton* m_runButton = nullptr;
    QTextBrowser* m_text = nullptr;  // title, summary, what to look for, runs, explanation
};

}  // namespace ddplab::ui
