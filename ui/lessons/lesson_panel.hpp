#pragma once
// The Lesson pane beside the charts: pick a lesson, read what it shows and what to look for,
// and run all of its runs in sequence (they are overlaid with a legend). The text is one
// scrolling document, so a long explanation never squeezes the rest.

#include "client/library/lesson_library.hpp"

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
    void setRunning(bool running);

signals:
    void lessonSelected(const QString& lessonId);
    void runLessonRequested(const QString& lessonId);

private:
    void showLesson(const Lesson* lesson);

    const LessonLibrary& m_library;
    QComboBox* m_picker = nullptr;
    QPushButton* m_runButton = nullptr;
    QTextBrowser* m_text = nullptr;  // title, summary, what to look for, runs, explanation
};

}  // namespace ddplab::ui
